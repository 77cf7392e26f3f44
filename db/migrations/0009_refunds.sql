-- Refunds (docs/refunds.md): money owed back to a customer, from its creation to the transaction that returns it.
-- A refund is written by the API (a merchant's, and the customer's claim of where to send it) or by the worker (one
-- the service owes by itself: excess, a late deposit, another token); its payment is the signer's alone, in
-- refund_payouts, written ahead of any signature like a merchant payout.
create table refunds (
  id                  text primary key check (id ~ '^ref_[0-9A-HJKMNP-TV-Z]{26}$'),
  mode                text not null check (mode in ('test', 'live')),
  merchant_id         text not null references merchants (id),
  session_id          text not null references sessions (id),
  source              text not null check (source in
                        ('merchant', 'overpayment', 'late_deposit', 'wrong_token', 'wrong_chain', 'dust',
                         'underpaid_expired', 'settlement_failed')),
  -- The deposit whose money it returns: every source but a merchant's refund, which returns money already paid.
  deposit_chain       text,
  deposit_tx_hash     text,
  deposit_log_index   integer,
  -- What is owed, in the token and on the chain it arrived in (a merchant's refund: USDC on Solana)...
  token               text not null check (token in ('USDC', 'USDT')),
  chain               text not null,
  amount_base_units   numeric(78, 0) not null check (amount_base_units > 0),
  -- ...and its worth in USD micro-units, what the customer is paid before fees.
  amount_usd_micros   bigint not null check (amount_usd_micros > 0),
  fee_policy          text not null default 'deducted' check (fee_policy in ('deducted', 'merchant')),
  status              text not null default 'pending_claim' check (status in
                        ('pending_claim', 'claimed', 'submitted', 'completed', 'failed', 'expired', 'cancelled')),
  status_reason       text,
  -- Where it goes: set by the claim (or by the merchant through the API), never defaulted to the address that paid.
  destination_chain   text,
  destination_token   text check (destination_token in ('USDC', 'USDT')),
  destination_address text,
  -- The payer's signature proving the destination is theirs, when the merchant asked for one.
  require_sender_proof boolean not null default false,
  sender_proof        jsonb,
  reason              text check (length(reason) <= 500),
  idempotency_key     text,
  expires_at          timestamptz not null,
  claimed_at          timestamptz,
  completed_at        timestamptz,
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  check ((deposit_chain is null) = (source = 'merchant')),
  check ((deposit_chain is null) = (deposit_tx_hash is null) and (deposit_tx_hash is null) = (deposit_log_index is null)),
  check ((status in ('pending_claim', 'expired', 'cancelled')) or destination_address is not null),
  foreign key (deposit_chain, deposit_tx_hash, deposit_log_index) references deposits (chain, tx_hash, log_index)
);
-- One automatic refund per deposit, ever: posting the deposit's refund again finds it. A credited deposit may have a
-- second, of what its merchant was not paid after all (underpaid_expired or settlement_failed), beside its excess.
create unique index refunds_one_per_deposit on refunds
  (deposit_chain, deposit_tx_hash, deposit_log_index, (source in ('underpaid_expired', 'settlement_failed')))
  where source <> 'merchant';
-- A merchant's create-refund replayed with its Idempotency-Key finds the refund it made.
create unique index refunds_idempotency on refunds (merchant_id, idempotency_key) where idempotency_key is not null;
create index refunds_session on refunds (session_id);
create index refunds_merchant_created on refunds (merchant_id, mode, created_at desc, id desc);
create index refunds_open_expiry on refunds (expires_at) where status = 'pending_claim';

-- The signer's payment of a refund: one per refund, ever, with its chain intent `refund:<ref_id>`. Amount, destination
-- and fee are the signer's copy, checked against the refund and the indexer's facts before the row is written.
create table refund_payouts (
  refund_id           text primary key references refunds (id),
  mode                text not null check (mode in ('test', 'live')),
  chain               text not null,
  token               text not null check (token in ('USDC', 'USDT')),
  destination_address text not null,
  amount_base_units   numeric(78, 0) not null check (amount_base_units > 0),
  fee_base_units      numeric(78, 0) not null default 0 check (fee_base_units >= 0),
  intent_id           text not null unique references chain_intents (id),
  status              text not null default 'pending' check (status in ('pending', 'submitted', 'confirmed', 'failed')),
  signature           text,
  failure_reason      text,
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  -- The treasury that pays it (fee payer and token authority): only its key signs it, and its in-flight USDC counts there.
  treasury            text not null
);

-- A refund's webhooks are deliveries of its session's (docs/refunds.md#webhooks), one per refund and event however
-- often its workflow announces it; a session's own stay one per status change and event.
alter table webhook_deliveries add column refund_id text references refunds (id);
alter table webhook_deliveries drop constraint webhook_deliveries_session_id_status_version_event_key;
create unique index webhook_deliveries_status_event on webhook_deliveries (session_id, status_version, event) where refund_id is null;
create unique index webhook_deliveries_refund_event on webhook_deliveries (refund_id, event) where refund_id is not null;

-- What an underpaid session does at its expiry (docs/refunds.md#sources): `settle` what arrived to the merchant, or
-- `refund` it all to the customer. Copied into each session at creation, like the tolerance.
alter table merchants add column underpaid_expiry text not null default 'settle' check (underpaid_expiry in ('settle', 'refund'));
