-- Chain indexers: where each (chain, network) has got to, the block hashes it passed through (to find the
-- common ancestor after a reorg), and what each deposit has already told its session workflow.

-- The last block fully processed: every matching transfer at or below it is in deposits.
create table indexer_cursors (
  chain         text not null,
  network       text not null check (network in ('mainnet', 'testnet')),
  block_number  bigint not null check (block_number >= 0),
  block_hash    text not null,
  updated_at    timestamptz not null default now(),
  primary key (chain, network)
);

-- Hashes of recently processed blocks (the end of each scanned range). After a reorg the newest one that is
-- still canonical is where scanning resumes. Pruned to a window a few times the chain's confirmation depth.
create table indexer_block_hashes (
  chain         text not null,
  network       text not null check (network in ('mainnet', 'testnet')),
  block_number  bigint not null,
  block_hash    text not null,
  primary key (chain, network, block_number)
);

-- The signal outbox lives on the deposit row: stage/confirmations/block_hash say what is true on chain, the
-- signalled_* columns what the session workflow has been told. The indexer sends whatever differs.
alter table deposits
  add column signalled_stage text check (signalled_stage in ('detected', 'confirmed', 'reorged')),
  -- The block the last depositDetected named; a deposit re-mined into another block is reorged, then detected again.
  add column signalled_block_hash text,
  add column signalled_confirmations integer not null default 0,
  -- Steps signalled so far. Part of each signal's Temporal request id: a resend after a crash between sending
  -- and recording carries the same id and Temporal drops it; the next step carries a new one.
  add column signal_seq integer not null default 0;

-- The rows an indexer revisits every tick: awaiting confirmations, or with a signal still to send.
create index deposits_indexer_open on deposits (chain, network)
  where stage = 'detected' or signalled_stage is distinct from stage;
