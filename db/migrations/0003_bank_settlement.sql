-- Bank transfers: the money is in the merchant's own account, so a session paid by bank settles without a payout.

-- Every bank transfer marked received for a session, once per reference as the session ledger counts it
-- (domain/session/sessionLedger.ts): credited to the session, or kept as refund due (the session was closed, or
-- takes no bank payments). The payments row stays the session's chosen payment; these rows are the receipts.
create table bank_receipts (
  session_id       text not null references sessions (id),
  reference        text not null check (reference <> ''),
  amount_usd_cents bigint not null check (amount_usd_cents > 0),
  received_by      text not null,
  credited         boolean not null,
  recorded_at      timestamptz not null default now(),
  primary key (session_id, reference)
);

-- A session paid partly in crypto and partly by bank settles in two parts: the treasury's payout of the crypto
-- deposits (part 'payout'), and the bank transfers the merchant already holds (part 'bank', provider 'bank').
alter table settlements add column part text not null default 'payout' check (part in ('payout', 'bank'));
alter table settlements add constraint settlements_bank_part check ((part = 'bank') = (provider = 'bank'));
alter table settlements drop constraint settlements_pkey;
alter table settlements add primary key (payment_id, part);
