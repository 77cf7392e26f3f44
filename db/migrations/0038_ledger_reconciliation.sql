-- Reconciliation: the ledger is compared with the chain per mode, as each mode's treasury is
-- its own wallet on its own network. Every entry now says which mode's money it moves; the payout postings made
-- so far take their payout's mode. The append-only trigger is lifted for that one backfill only.
alter table ledger_entries add column mode text check (mode in ('test', 'live'));
alter table ledger_entries disable trigger ledger_entries_no_change;
update ledger_entries e set mode = p.mode from payouts p where e.reference = p.intent_id;
alter table ledger_entries enable trigger ledger_entries_no_change;
alter table ledger_entries alter column mode set not null;
drop index ledger_entries_account;
create index ledger_entries_account on ledger_entries (mode, account, asset);

-- One row per reconciliation run and mode: what the ledger and the chain said of each reconciled account and
-- asset, and the differences (domain/ledger/reconciliation.ts), so the last run can be shown and measured without a chain.
create table reconciliation_runs (
  id          bigserial primary key,
  mode        text not null check (mode in ('test', 'live')),
  ran_at      timestamptz not null default now(),
  -- [{account, asset, ledger, observed}] with base-unit amounts as decimal strings.
  balances    jsonb not null,
  -- The balances whose ledger and observed amounts differ, in the same shape with `difference` (observed - ledger).
  differences jsonb not null
);
create index reconciliation_runs_latest on reconciliation_runs (mode, ran_at desc);
