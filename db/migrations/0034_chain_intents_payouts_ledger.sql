-- Write-ahead chain writes (docs/settlement.md#r1-written-ahead). A transaction the service signs
-- is a chain_intents row first, under an id derived from what it does (payout:<pay_id>), then its signed bytes,
-- signature and last valid block height are stored before anything is broadcast, so every retry sends the same
-- bytes. A new transaction is signed only once the old one is provably dead; the old signature stays here.
create table chain_intents (
  id                      text primary key,
  chain                   text not null check (chain = 'solana'),
  status                  text not null default 'prepared'
                            check (status in ('prepared', 'signed', 'broadcast', 'confirmed', 'finalized', 'failed')),
  -- The signed wire transaction, base64: exactly what is (re)broadcast.
  wire_transaction        text,
  signature               text unique,
  last_valid_block_height bigint,
  superseded_signatures   text[] not null default '{}',
  slot                    bigint,
  -- The transaction error of a transaction that landed and failed, as the node reported it.
  error                   jsonb,
  created_at              timestamptz not null default now(),
  signed_at               timestamptz,
  broadcast_at            timestamptz,
  confirmed_at            timestamptz,
  finalized_at            timestamptz,
  updated_at              timestamptz not null default now(),
  constraint chain_intents_signed_bytes check (
    (status = 'prepared') = (signature is null)
    and (signature is null) = (wire_transaction is null)
    and (signature is null) = (last_valid_block_height is null)
  )
);
-- Signed and not landed: what a treasury's balance still holds but has promised.
create index chain_intents_unlanded on chain_intents (id) where status in ('signed', 'broadcast');

-- One payout per payment, ever: the row exists (and fixes amount and wallet) before a transaction is signed.
create table payouts (
  payment_id        text primary key references payments (id),
  merchant_id       text not null references merchants (id),
  mode              text not null check (mode in ('test', 'live')),
  amount_base_units numeric(78, 0) not null check (amount_base_units > 0),
  mint              text not null,
  -- The wallet that pays it (fee payer and token authority), and the one paid.
  treasury          text not null,
  merchant_wallet   text not null,
  intent_id         text not null unique references chain_intents (id) check (intent_id = 'payout:' || payment_id),
  status            text not null default 'pending'
                      check (status in ('pending', 'awaiting_liquidity', 'submitted', 'confirmed', 'finalized', 'failed')),
  signature         text,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now(),
  confirmed_at      timestamptz,
  finalized_at      timestamptz
);

-- Double-entry ledger (domain/ledger/ledger.ts): amounts in base units, debits positive, credits negative. Entries are
-- posted in groups; each group sums to zero per asset, checked when the transaction commits. Append-only: a
-- mistake is corrected by posting another group.
create table ledger_entries (
  id         bigserial primary key,
  group_id   text not null,
  account    text not null,
  asset      text not null,
  amount     numeric(78, 0) not null check (amount <> 0),
  reference  text not null,
  created_at timestamptz not null default now(),
  unique (group_id, account, asset)
);
create index ledger_entries_reference on ledger_entries (reference);
create index ledger_entries_account on ledger_entries (account, asset);

create function ledger_group_balanced() returns trigger language plpgsql as $$
begin
  if exists (select 1 from ledger_entries where group_id = new.group_id group by asset having sum(amount) <> 0) then
    raise exception 'ledger group % does not balance', new.group_id using errcode = 'check_violation';
  end if;
  return null;
end $$;
create constraint trigger ledger_entries_balanced after insert on ledger_entries
  deferrable initially deferred for each row execute function ledger_group_balanced();

create function ledger_entries_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'ledger entries are append-only: post a correcting group instead' using errcode = 'insufficient_privilege';
end $$;
create trigger ledger_entries_no_change before update or delete on ledger_entries
  for each row execute function ledger_entries_append_only();
create trigger ledger_entries_no_truncate before truncate on ledger_entries
  for each statement execute function ledger_entries_append_only();
