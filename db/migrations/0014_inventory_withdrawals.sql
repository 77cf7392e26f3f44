-- Held inventory withdrawn by an operator from a chain's collector to the rebalancing address
-- (docs/settlement.md#held-inventory). `checkout-admin inventory withdraw` writes the row as the schema owner; the
-- signer writes its chain intent rebalance:<chain>:<id> ahead of signing it (collector.rebalance(token, amount), from
-- the relayer) and records the outcome with its ledger posting.
create table inventory_withdrawals (
  id            text primary key,
  mode          text not null check (mode in ('test', 'live')),
  chain         text not null check (chain in ('bsc', 'tron', 'solana')),
  token         text not null check (token in ('USDC', 'USDT')),
  -- The token's base units on its chain (18 decimals on bsc).
  amount        numeric(78, 0) not null check (amount > 0),
  -- Where the collector sends it: INVENTORY_REBALANCE_ADDRESS_<CHAIN>_<MODE> when requested, which the contract's
  -- owner-set rebalanceAddress must equal before anything is signed.
  to_address    text not null,
  status        text not null default 'requested' check (status in ('requested', 'submitted', 'sent', 'failed')),
  intent_id     text unique references chain_intents (id),
  tx_hash       text,
  failure       text,
  requested_by  text not null,
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now(),
  -- A refused request fails with no intent: nothing was written ahead, nothing signed.
  check (status <> 'requested' or intent_id is null),
  check (status not in ('submitted', 'sent') or intent_id is not null),
  check (status <> 'sent' or tx_hash is not null)
);

-- One withdrawal at a time per chain and mode: the collector's balance is judged for one.
create unique index inventory_withdrawals_one_open on inventory_withdrawals (mode, chain) where status in ('requested', 'submitted');
