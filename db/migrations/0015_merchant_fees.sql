-- Per-merchant fees (docs/settlement.md#fees): what the operator keeps of each treasury payout, in basis points of its
-- gross plus a fixed amount in US cents, both 0 by default. Only the operator sets them (checkout-admin merchant
-- set-fee): the API's role may not write them (db/serviceRoles.ts).
alter table merchants add column fee_bps integer not null default 0 check (fee_bps between 0 and 10000);
alter table merchants add column fee_fixed_cents bigint not null default 0 check (fee_fixed_cents >= 0);

-- The fee a payout deducts, fixed when the signer writes the row: a later change of the merchant's fee leaves it as it
-- is. The transaction moves the gross less the fee and the netting; a payout they take whole moves nothing and is
-- `netted` (0010_payout_netting.sql), with neither a chain intent nor a signature.
alter table payouts add column fee_base_units numeric(78, 0) not null default 0;
alter table payouts add constraint payouts_fee_within check (fee_base_units >= 0 and fee_base_units + netted_base_units <= amount_base_units);
alter table payouts drop constraint payouts_netted_whole;
alter table payouts add constraint payouts_netted_whole check (
  (status = 'netted') = (netted_base_units + fee_base_units = amount_base_units) and (status = 'netted') = (intent_id is null)
);

-- A failed generation deducted what its row deducted: the next generation keeps it and transfers the rest.
alter table failed_payouts add column fee_base_units numeric(78, 0) not null default 0 check (fee_base_units >= 0);
