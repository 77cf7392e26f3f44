-- Payment lifecycle: quotes, deposit addresses and watches, deposits, payments, settlements, webhooks.
-- Token amounts are integer base units in numeric(78,0) (uint256 fits); never floats.

-- Webhook signing secrets, one per mode; strong randomness from gen_random_uuid (v4, CSPRNG).
alter table merchants
  add column webhook_secret_test text not null
    default 'whsec_' || encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex'),
  add column webhook_secret_live text not null
    default 'whsec_' || encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex');

create table quotes (
  id                 text primary key check (id like 'qt\_%'),
  mode               text not null check (mode in ('test', 'live')),
  session_id         text references sessions (id),
  token              text not null,
  chain              text not null,
  amount_usd_cents   bigint not null check (amount_usd_cents > 0),
  token_base_units   numeric(78, 0) not null,
  decimals           integer not null,
  -- USD price of one token as a decimal string, and where it came from.
  rate               text not null,
  price_source       text not null,
  expires_at         timestamptz not null,
  created_at         timestamptz not null default now()
);

-- One HD derivation index per session, never reused.
create sequence deposit_address_index_seq as bigint minvalue 0 start 0;

create table deposit_addresses (
  session_id        text primary key references sessions (id),
  derivation_index  bigint not null unique,
  evm_address       text not null,
  tron_address      text not null,
  solana_address    text not null,
  created_at        timestamptz not null default now()
);

-- What the indexers look for: an address on one chain of one network, until a deadline.
create table deposit_watches (
  session_id   text not null references sessions (id),
  chain        text not null,
  network      text not null check (network in ('mainnet', 'testnet')),
  address      text not null,
  watch_until  timestamptz not null,
  created_at   timestamptz not null default now(),
  primary key (session_id, chain)
);
create index deposit_watches_active on deposit_watches (chain, network, watch_until);

create or replace function notify_deposit_watch() returns trigger language plpgsql as $$
begin
  perform pg_notify('deposit_watches', new.chain || ':' || new.network);
  return new;
end $$;
create trigger deposit_watches_notify after insert or update on deposit_watches
  for each row execute function notify_deposit_watch();

create table payments (
  id                  text primary key check (id like 'pay\_%'),
  session_id          text not null unique references sessions (id),
  quote_id            text references quotes (id),
  token               text not null,
  chain               text not null,
  deposit_address     text not null,
  expected_base_units numeric(78, 0) not null,
  received_base_units numeric(78, 0) not null default 0,
  decimals            integer not null,
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now()
);

-- Each on-chain transfer once. The indexer owns the chain facts (block, stage, confirmations);
-- the session workflow owns whether it was credited to the payment or is a late deposit to refund.
create table deposits (
  chain             text not null,
  tx_hash           text not null,
  log_index         integer not null,
  network           text not null check (network in ('mainnet', 'testnet')),
  session_id        text references sessions (id),
  token             text not null,
  amount_base_units numeric(78, 0) not null check (amount_base_units >= 0),
  from_address      text not null,
  to_address        text not null,
  block_number      bigint not null,
  block_hash        text not null,
  stage             text not null check (stage in ('detected', 'confirmed', 'reorged')),
  confirmations     integer not null default 0,
  credited          boolean not null default false,
  late              boolean not null default false,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now(),
  primary key (chain, tx_hash, log_index)
);
create index deposits_session on deposits (session_id);

create table settlements (
  payment_id        text primary key references payments (id),
  session_id        text not null references sessions (id),
  provider          text not null,
  reference         text not null,
  amount_usdc_base_units numeric(78, 0) not null,
  chain             text not null default 'solana',
  settled_at        timestamptz not null
);

create table webhook_deliveries (
  id             text primary key check (id like 'wh\_%'),
  session_id     text not null references sessions (id),
  event          text not null,
  -- The status change that caused it: one delivery per event of one change, however often it is asked for.
  status_version integer not null,
  url            text not null,
  -- The exact JSON sent (jsonb would reorder keys), so every retry carries byte-identical, re-signed bodies.
  body           text not null,
  state          text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
  created_at     timestamptz not null default now(),
  delivered_at   timestamptz,
  unique (session_id, status_version, event)
);

create table webhook_attempts (
  id           bigserial primary key,
  delivery_id  text not null references webhook_deliveries (id),
  attempt      integer not null,
  started_at   timestamptz not null,
  status_code  integer,
  latency_ms   integer not null,
  error        text,
  unique (delivery_id, attempt)
);
