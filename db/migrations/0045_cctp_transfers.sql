-- CCTP V2 transfers of USDC from a DepositCollector on an EVM chain to the Solana treasury: one
-- row per transfer_<id> workflow, written before the burn is prepared, carrying what each stage learnt. The burn
-- and the receive are chain intents (burn:<id>, recv:<nonce>); this row links them and holds the attested message.
create table transfers (
  id                 text primary key,
  mode               text not null check (mode in ('test', 'live')),
  source_chain       text not null check (source_chain in ('ethereum', 'optimism', 'arbitrum', 'base', 'polygon')),
  -- The collector's USDC burned, and the most the bridge may keep of it, in USDC base units.
  amount             numeric(78, 0) not null check (amount > 0),
  max_fee            numeric(78, 0) not null check (max_fee >= 0 and max_fee < amount),
  speed              text not null check (speed in ('standard', 'fast')),
  stage              text not null default 'burning'
                       check (stage in ('burning', 'burned', 'attested', 'received', 'failed')),
  burn_intent_id     text not null references chain_intents (id),
  burn_tx_hash       text,
  -- bytes32 hex, filled by the attestation service; the receive's intent is recv:<nonce>.
  nonce              text,
  message            text,
  attestation        text,
  receive_intent_id  text references chain_intents (id),
  received_amount    numeric(78, 0),
  failure            text,
  created_at         timestamptz not null default now(),
  updated_at         timestamptz not null default now(),
  burned_at          timestamptz,
  attested_at        timestamptz,
  received_at        timestamptz,
  check ((message is null) = (attestation is null)),
  check (stage not in ('attested', 'received') or (message is not null and nonce is not null)),
  check (stage <> 'received' or received_amount is not null)
);
-- One transfer in flight per source chain and mode: a second burn would race the first for the collector's balance.
create unique index transfers_one_in_flight on transfers (mode, source_chain) where stage in ('burning', 'burned', 'attested');
create index transfers_in_flight on transfers (stage, created_at) where stage in ('burning', 'burned', 'attested');
