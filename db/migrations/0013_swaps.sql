-- Swaps of a DepositCollector's USDT to USDC on a CCTP chain through Uniswap V3 (docs/settlement.md#usdt-swaps): one
-- row per swap, written with its chain intent (swap:<id>) before anything is signed; the USDC it brings is carried
-- to the treasury by the chain's next CCTP transfer.
create table swaps (
  id               text primary key,
  mode             text not null check (mode in ('test', 'live')),
  chain            text not null check (chain in ('ethereum', 'optimism', 'arbitrum', 'base', 'polygon')),
  token_in         text not null,
  -- Base units of the token sold, the pool's fee tier, and the least USDC the swap may bring (QuoterV2's quote).
  amount_in        numeric(78, 0) not null check (amount_in > 0),
  pool_fee         integer not null check (pool_fee > 0),
  min_out          numeric(78, 0) not null check (min_out > 0),
  stage            text not null default 'swapping' check (stage in ('swapping', 'swapped', 'failed')),
  intent_id        text not null references chain_intents (id),
  tx_hash          text,
  -- USDC base units the collector gained, from its Swapped event.
  amount_out       numeric(78, 0),
  failure          text,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  check (stage <> 'swapped' or (amount_out is not null and amount_out >= min_out))
);
-- One swap in flight per chain and mode: a second would race the first for the collector's USDT.
create unique index swaps_one_in_flight on swaps (mode, chain) where stage = 'swapping';
