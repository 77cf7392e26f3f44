-- "Send test event" from the dashboard's Developers page: one signed POST to a URL the merchant names,
-- kept with its outcome so the page can show what the receiver answered.
create table webhook_test_events (
  id           text primary key check (id like 'wh\_%'),
  merchant_id  text not null references merchants (id),
  mode         text not null check (mode in ('test', 'live')),
  url          text not null,
  body         text not null,
  sent_at      timestamptz not null,
  status_code  integer,
  latency_ms   integer not null,
  error        text
);
create index webhook_test_events_merchant on webhook_test_events (merchant_id, mode, sent_at);
