-- What each mode's signer holds, in public form (docs/operations.md#signer-fingerprints): the fingerprint of the
-- account xpubs its deposit seed derives, written by the signer's role alone at its start. The worker hands out a
-- live EVM or Tron deposit address only while its DEPOSIT_XPUB_*_LIVE have the live signer's fingerprint.
create table signer_fingerprints (
  mode             text primary key check (mode in ('test', 'live')),
  xpub_fingerprint text not null check (xpub_fingerprint ~ '^sha256:[0-9a-f]{64}$'),
  published_at     timestamptz not null default now()
);
