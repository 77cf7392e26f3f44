-- Failed authentications (refused API keys, forged session tokens) per client address in one-minute
-- windows, the same scheme as rate_limit_windows: an address over AUTH_FAILURES_PER_IP_PER_MINUTE is
-- answered 429 by every API replica until its window ends.
create table auth_failure_windows (
  ip             text primary key,
  window_start   timestamptz not null,
  request_count  integer not null
);

-- Session-token requests (the hosted page) per merchant across all its sessions, in one-minute windows:
-- one merchant's many sessions cannot flood the service (RATE_LIMIT_SESSION_TOKENS_PER_MERCHANT_PER_MINUTE).
create table merchant_session_token_rate_limit_windows (
  merchant_id    text primary key references merchants (id),
  window_start   timestamptz not null,
  request_count  integer not null
);
