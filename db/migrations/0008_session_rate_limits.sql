-- Requests made with a session token (the hosted page, spec 5.3) count per session in fixed one-minute
-- windows, as API keys do per key (0004): a leaked checkout URL cannot be used to hammer the service.
create table session_rate_limit_windows (
  session_id    text primary key references sessions (id) on delete cascade,
  window_start  timestamptz not null,
  request_count integer not null
);
