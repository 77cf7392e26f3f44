-- Rotating a webhook signing secret without breaking receivers that still hold the old one: until
-- `…_previous_until`, deliveries carry a second v1 signature made with the previous secret (as Stripe does
-- when a secret is rolled), so the merchant can deploy the new secret at leisure.
alter table merchants
  add column webhook_secret_test_previous       text,
  add column webhook_secret_test_previous_until timestamptz,
  add column webhook_secret_live_previous       text,
  add column webhook_secret_live_previous_until timestamptz;
