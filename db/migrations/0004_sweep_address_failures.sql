-- Forwarder deposit addresses whose sweep reverts in simulation (a token that blacklists the address, a clone that
-- cannot deploy): the plan leaves each out of its sweepMany so the rest of the batch still moves, and counts it
-- here. From SWEEP_MAX_ADDRESS_FAILURES on, the address is not planned at all until an operator deletes its row
-- (docs/settlement.md#evm-forwarder-sweeps). A simulation that passes again deletes the row.
create table sweep_address_failures (
  mode            text not null check (mode in ('test', 'live')),
  chain           text not null check (chain in ('ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc', 'tron')),
  token           text not null check (token in ('USDC', 'USDT')),
  -- As collector_sweep_addresses keeps it: lowercase hex on an EVM chain.
  address         text not null,
  failures        integer not null check (failures > 0),
  last_error      text not null,
  first_failed_at timestamptz not null default now(),
  last_failed_at  timestamptz not null default now(),
  primary key (mode, chain, token, address)
);
