-- Counting a merchant's open sessions per mode (the cap on open sessions) reads only these rows.
create index sessions_open on sessions (merchant_id, mode, expires_at)
  where status in ('pending', 'awaiting_payment', 'confirming', 'underpaid');
