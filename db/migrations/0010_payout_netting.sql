-- Payout netting (docs/refunds.md#funding): a payout collects what its merchant owes for refunds of money already
-- paid out (merchant_receivable:<mer_id>) before its transfer. `amount_base_units` stays what the payment's deposits
-- owe the merchant; `netted_base_units` is the part of it that repaid the receivable, so the transaction moves the
-- difference. The signer alone writes it, in the transaction that writes the row. A payout netted whole moves nothing:
-- it is `netted`, with neither a chain intent nor a signature.
alter table payouts add column netted_base_units numeric(78, 0) not null default 0;
alter table payouts add constraint payouts_netted_within check (netted_base_units >= 0 and netted_base_units <= amount_base_units);
alter table payouts alter column intent_id drop not null;
do $$
declare name text;
begin
  for name in
    select conname from pg_constraint
    where conrelid = 'payouts'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%awaiting_liquidity%'
  loop
    execute format('alter table payouts drop constraint %I', name);
  end loop;
end $$;
alter table payouts add constraint payouts_status_check check (
  status in ('pending', 'awaiting_liquidity', 'submitted', 'confirmed', 'finalized', 'failed', 'netted')
);
alter table payouts add constraint payouts_netted_whole check (
  (status = 'netted') = (netted_base_units = amount_base_units) and (status = 'netted') = (intent_id is null)
);

-- A failed generation netted what its row netted: the next generation keeps it and transfers the rest.
alter table failed_payouts add column netted_base_units numeric(78, 0) not null default 0 check (netted_base_units >= 0);
