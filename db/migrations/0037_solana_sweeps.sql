-- Solana deposit sweeps (docs/settlement.md#deposit-sweeps): a batch of deposit accounts emptied into the
-- treasury and closed by one transaction, written ahead as the chain intent sweep:solana:<batch> (the sweep's id).
-- What a landed sweep moved is read from its balance deltas, never from what was planned.
create table solana_sweeps (
  id            text primary key references chain_intents (id) check (id like 'sweep:solana:%'),
  mode          text not null check (mode in ('test', 'live')),
  -- The workflow run that planned it and its place in that plan: a retried plan finds its batches again.
  run_key       text not null,
  batch         integer not null check (batch >= 0),
  -- The wallet that pays the fee and receives the USDC and the rent.
  treasury      text not null,
  mint          text not null,
  status        text not null default 'pending'
                  check (status in ('pending', 'submitted', 'confirmed', 'finalized', 'failed', 'empty')),
  signature     text,
  usdc_swept    numeric(78, 0),
  fee_lamports  numeric(78, 0),
  rent_lamports numeric(78, 0),
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now(),
  landed_at     timestamptz,
  unique (run_key, batch)
);
create index solana_sweeps_unlanded on solana_sweeps (mode, created_at) where status in ('pending', 'submitted');

create table solana_sweep_accounts (
  sweep_id         text not null references solana_sweeps (id),
  -- The deposit address (the token account's owner and authority) and the seed index its key derives from.
  owner            text not null,
  derivation_index bigint not null,
  token_account    text not null,
  -- What the plan found to take: the balance, up to what the ledger holds for the address. The transaction takes
  -- at most this, and less if the account holds less when it is signed.
  planned_base_units numeric(78, 0) not null,
  swept_base_units numeric(78, 0),
  primary key (sweep_id, token_account)
);
create index solana_sweep_accounts_owner on solana_sweep_accounts (owner);
