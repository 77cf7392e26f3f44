-- A settled payment's settled_at is its payout's block time, as the chain records it, not the
-- moment the service noticed the confirmation. Payouts confirmed before this column keep their confirmation time.
alter table payouts add column block_time timestamptz;
