-- Per-key rate limiting and Idempotency-Key replay. Both live in Postgres so that every API replica
-- shares one count and one record of each key.

-- Fixed one-minute window per API key: one row per key, rewritten by a single upsert per request.
create table rate_limit_windows (
  api_key_id    text primary key references api_keys (id) on delete cascade,
  window_start  timestamptz not null,
  request_count integer not null
);

-- One row per Idempotency-Key of a merchant in one mode. While the first request runs, locked_by names
-- it and response_status is null; once it finishes, its response is kept for replay. Rows older than
-- 24 hours are treated as absent and purged.
create table idempotency_keys (
  merchant_id      text not null references merchants (id),
  mode             text not null check (mode in ('test', 'live')),
  idempotency_key  text not null,
  -- SHA-256 of method, path and the canonical JSON of the body: a reuse must be the same request.
  request_hash     bytea not null,
  locked_by        text,
  locked_at        timestamptz,
  response_status  integer,
  response_body    jsonb,
  created_at       timestamptz not null default now(),
  completed_at     timestamptz,
  primary key (merchant_id, mode, idempotency_key),
  check ((response_status is null) = (completed_at is null))
);
create index idempotency_keys_created on idempotency_keys (created_at);
