-- EVM forwarder sweeps: a batch of CREATE2 deposit addresses emptied into the factory's collector
-- by one sweepMany call from the relayer, written ahead as the chain intent sweep:<chain>:<batch> (the sweep's id).
-- What a landed sweep moved is read from its Swept events, never from what was planned.
create table evm_sweeps (
  id             text primary key references chain_intents (id) check (id like 'sweep:%' and id not like 'sweep:solana:%'),
  mode           text not null check (mode in ('test', 'live')),
  chain          text not null check (chain in ('ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc')),
  token          text not null check (token in ('USDC', 'USDT')),
  token_address  text not null,
  -- The factory the addresses were made by (deposit_addresses.evm_factory): the call goes to it.
  factory        text not null,
  -- The workflow run that planned it and its place in that plan: a retried plan finds its batches again.
  run_key        text not null,
  batch          integer not null check (batch >= 0),
  status         text not null default 'pending' check (status in ('pending', 'submitted', 'finalized', 'failed')),
  tx_hash        text,
  -- Where the landed call sits: a deposit logged after (block_number, last_log_index) arrived after the sweep.
  block_number   bigint,
  last_log_index integer,
  moved_base_units numeric(78, 0),
  gas_wei        numeric(78, 0),
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now(),
  landed_at      timestamptz,
  unique (run_key, batch)
);
create index evm_sweeps_unlanded on evm_sweeps (mode, chain, token, created_at) where status in ('pending', 'submitted');

create table evm_sweep_addresses (
  sweep_id           text not null references evm_sweeps (id),
  -- Lowercase hex, as the Swept events are matched.
  address            text not null,
  salt               text not null,
  session_id         text not null references sessions (id),
  -- The balance the plan read; the call takes whatever is there when it runs.
  planned_base_units numeric(78, 0) not null,
  swept_base_units   numeric(78, 0),
  primary key (sweep_id, address)
);
create index evm_sweep_addresses_address on evm_sweep_addresses (address);
