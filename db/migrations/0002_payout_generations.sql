-- Payout generations (docs/settlement.md#what-follows-a-failed-settlement). A payout that landed and failed is paid
-- again only after an operator's decision, under a new generation: `payouts` keeps one row per payment, the current
-- generation, with its own chain intent (payout:<pay_id>:<generation> from the second on); each earlier generation,
-- which failed, is kept in `failed_payouts` with who decided to pay it again.
alter table payouts add column generation integer not null default 1 check (generation >= 1);
-- The baseline's check that tied intent_id to the payment alone, whatever name Postgres gave it.
do $$
declare name text;
begin
  for name in
    select conname from pg_constraint
    where conrelid = 'payouts'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%intent_id%'
  loop
    execute format('alter table payouts drop constraint %I', name);
  end loop;
end $$;
alter table payouts add constraint payouts_intent_id_check check (
  intent_id = case when generation = 1 then 'payout:' || payment_id else 'payout:' || payment_id || ':' || generation end
);

create table failed_payouts (
  payment_id        text not null references payments (id),
  generation        integer not null check (generation >= 1),
  merchant_id       text not null references merchants (id),
  mode              text not null check (mode in ('test', 'live')),
  amount_base_units numeric(78, 0) not null check (amount_base_units > 0),
  mint              text not null,
  treasury          text not null,
  merchant_wallet   text not null,
  intent_id         text not null unique references chain_intents (id),
  signature         text,
  -- The operator who decided to pay it again, and when.
  repaid_by         text not null,
  repaid_at         timestamptz not null default now(),
  primary key (payment_id, generation)
);
