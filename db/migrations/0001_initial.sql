-- Merchants, their API keys, and the read model of checkout sessions and transactions.
-- Money is integer base units (bigint cents for USD); no float column holds money.

create table merchants (
  id                       text primary key check (id like 'mer\_%'),
  name                     text not null,
  settlement_wallet        text,
  -- Amount tolerance for underpaid/overpaid judgement: basis points of the amount, with a floor in cents.
  tolerance_bps            integer not null default 50 check (tolerance_bps between 0 and 10000),
  tolerance_min_cents      bigint  not null default 1 check (tolerance_min_cents >= 0),
  session_lifetime_seconds integer not null default 3600 check (session_lifetime_seconds between 60 and 604800),
  -- { "USDC": ["ethereum", ...], "USDT": [...] }: the token/chain pairs this merchant accepts.
  supported_tokens         jsonb not null,
  created_at               timestamptz not null default now()
);

create table api_keys (
  id           text primary key,
  merchant_id  text not null references merchants (id),
  mode         text not null check (mode in ('test', 'live')),
  -- SHA-256 of the raw key; the raw key is shown once at creation and never stored.
  key_hash     bytea not null unique,
  key_prefix   text not null,
  key_last4    text not null,
  label        text,
  allowed_ips  text[],
  created_at   timestamptz not null default now(),
  revoked_at   timestamptz
);
create index api_keys_merchant on api_keys (merchant_id);

create table sessions (
  id                text primary key check (id like 'cs\_%'),
  merchant_id       text not null references merchants (id),
  mode              text not null check (mode in ('test', 'live')),
  amount_usd_cents  bigint not null check (amount_usd_cents > 0),
  merchant_currency text,
  merchant_amount   numeric,
  webhook_url       text not null,
  metadata          jsonb not null default '{}',
  supported_methods jsonb not null,
  supported_tokens  jsonb not null,
  status            text not null,
  -- Bumped by every workflow status write; an older write never overwrites a newer one.
  status_version    integer not null default 0,
  expires_at        timestamptz not null,
  created_at        timestamptz not null,
  updated_at        timestamptz not null
);
create index sessions_merchant_created on sessions (merchant_id, created_at desc);

-- One transaction per session: the merchant's external id maps to exactly one of them per mode.
create table transactions (
  id                 text primary key,
  session_id         text not null unique references sessions (id),
  merchant_id        text not null references merchants (id),
  mode               text not null check (mode in ('test', 'live')),
  ext_transaction_id text not null,
  created_at         timestamptz not null,
  unique (merchant_id, mode, ext_transaction_id)
);
