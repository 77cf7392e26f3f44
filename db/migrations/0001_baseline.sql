-- The schema as first released. Money is integer base units: bigint cents for USD, numeric(78, 0) for token
-- amounts (uint256 fits); no float column holds money. Later changes are new migrations (docs/operations.md#migrations).

-- Merchants, their API keys, and the read model of checkout sessions and transactions.

create table merchants (
  id                       text primary key check (id like 'mer\_%'),
  name                     text not null,
  settlement_wallet        text,
  -- Amount tolerance for underpaid/overpaid judgement: basis points of the amount, with a floor in cents.
  tolerance_bps            integer not null default 50 check (tolerance_bps between 0 and 10000),
  tolerance_min_cents      bigint  not null default 1 check (tolerance_min_cents >= 0),
  session_lifetime_seconds integer not null default 3600 check (session_lifetime_seconds between 60 and 604800),
  -- { "USDC": ["ethereum", ...], "USDT": [...] }: the token/chain pairs this merchant accepts.
  supported_tokens         jsonb not null,
  created_at               timestamptz not null default now(),
  -- Webhook signing secrets, one per mode; strong randomness from gen_random_uuid (v4, CSPRNG).
  webhook_secret_test      text not null
    default 'whsec_' || encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex'),
  webhook_secret_live      text not null
    default 'whsec_' || encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex'),
  -- Rotating a secret without breaking receivers that still hold the old one: until `…_previous_until`,
  -- deliveries carry a second v1 signature made with the previous secret (as Stripe does when a secret is rolled),
  -- so the merchant can deploy the new secret at leisure.
  webhook_secret_test_previous       text,
  webhook_secret_test_previous_until timestamptz,
  webhook_secret_live_previous       text,
  webhook_secret_live_previous_until timestamptz
);

create table api_keys (
  id           text primary key,
  merchant_id  text not null references merchants (id),
  mode         text not null check (mode in ('test', 'live')),
  -- SHA-256 of the raw key; the raw key is shown once at creation and never stored.
  key_hash     bytea not null unique,
  key_prefix   text not null,
  key_last4    text not null,
  label        text,
  allowed_ips  text[],
  created_at   timestamptz not null default now(),
  revoked_at   timestamptz
);
create index api_keys_merchant on api_keys (merchant_id);

-- Every API replica caches key lookups by key hash (api/apiKeyCache.ts, domain/security/lookupCache.ts); a written key names
-- its hash on the 'api_keys' channel so each replica drops its entry at once. A trigger rather than a notify in the
-- code that writes: revocation and allowlist changes come from the admin CLI, the dashboard and plain SQL alike.
-- The payload is the hash in hex (64 characters), which tells a listener nothing it could use as a key.
create function notify_api_key_change() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    perform pg_notify('api_keys', encode(old.key_hash, 'hex'));
  end if;
  if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.key_hash <> old.key_hash) then
    perform pg_notify('api_keys', encode(new.key_hash, 'hex'));
  end if;
  return null;
end $$;
create trigger api_keys_notify after insert or update or delete on api_keys
  for each row execute function notify_api_key_change();

create table sessions (
  id                text primary key check (id like 'cs\_%'),
  merchant_id       text not null references merchants (id),
  mode              text not null check (mode in ('test', 'live')),
  amount_usd_cents  bigint not null check (amount_usd_cents > 0),
  merchant_currency text,
  merchant_amount   numeric,
  webhook_url       text not null,
  metadata          jsonb not null default '{}',
  supported_methods jsonb not null,
  supported_tokens  jsonb not null,
  status            text not null,
  -- Bumped by every workflow status write; an older write never overwrites a newer one.
  status_version    integer not null default 0,
  expires_at        timestamptz not null,
  created_at        timestamptz not null,
  updated_at        timestamptz not null,
  -- The workflow input of a session whose workflow the API has not yet seen start. The API commits the session
  -- row first and starts its workflow afterwards, outside any transaction; a crash in between leaves this set,
  -- and the merchant's retry with the same transaction_id starts the workflow from it. Null once the start is
  -- confirmed.
  pending_workflow_input jsonb,
  -- The workflow's own reason for the status ("deposit 0x… confirmed with 64 confirmations",
  -- "cancelled by merchant: …"), copied into the timeline.
  status_reason     text
);
create index sessions_merchant_created on sessions (merchant_id, created_at desc);
-- The cap on open sessions reads the in-progress ones past their expiry and the underpaid ones before it
-- (in_progress_session_counts below).
create index sessions_in_progress on sessions (merchant_id, mode, expires_at)
  where status in ('pending', 'awaiting_payment', 'confirming');
create index sessions_underpaid on sessions (merchant_id, mode, expires_at) where status = 'underpaid';
-- `checkout-admin session start-unstarted` finds the sessions whose workflow start was never confirmed: normally
-- none, so an index of only those rows costs the writes nothing and spares the command a scan of every session.
create index sessions_unstarted on sessions (created_at) where pending_workflow_input is not null;

-- One transaction per session: the merchant's external id maps to exactly one of them per mode.
create table transactions (
  id                 text primary key,
  session_id         text not null unique references sessions (id),
  merchant_id        text not null references merchants (id),
  mode               text not null check (mode in ('test', 'live')),
  ext_transaction_id text not null,
  created_at         timestamptz not null,
  unique (merchant_id, mode, ext_transaction_id)
);

-- Every status a session's read model took, in order, for the dashboard's timeline. Recorded by a trigger,
-- so whichever writer moves a session (the workflow's activities, simulate, operators) cannot forget it.
create table session_status_changes (
  id           bigserial primary key,
  session_id   text not null references sessions (id),
  from_status  text,
  to_status    text not null,
  at           timestamptz not null,
  reason       text
);
create index session_status_changes_session on session_status_changes (session_id, id);

create function record_session_status_change() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into session_status_changes (session_id, from_status, to_status, at, reason) values (new.id, null, new.status, new.created_at, new.status_reason);
  elsif new.status is distinct from old.status then
    insert into session_status_changes (session_id, from_status, to_status, at, reason) values (new.id, old.status, new.status, new.updated_at, new.status_reason);
  end if;
  return new;
end $$;
create trigger sessions_status_changes after insert or update of status on sessions
  for each row execute function record_session_status_change();

-- The cap on open sessions: open means pending, awaiting_payment, confirming or underpaid, before expires_at.
-- Counting them on every create cost as much as the merchant had sessions open. The first three are left by every
-- session (at its expiry, or once its deposit is judged), so a counter of the sessions in them, kept in the same
-- transaction as every status write, stays small to correct: the cap subtracts those of them past their expiry
-- (normally none, or the few whose workflow has not yet moved them) and adds the underpaid ones not yet expired. An
-- underpaid session stays underpaid after its expiry (docs/lifecycle.md), which is why it is not in the counter:
-- its rows would pile up in the correction.
create table in_progress_session_counts (
  merchant_id text not null references merchants (id),
  mode        text not null check (mode in ('test', 'live')),
  in_progress integer not null check (in_progress >= 0),
  primary key (merchant_id, mode)
);

-- Inserts and deletes are counted once per statement, from its transition table, so a statement writing many
-- sessions (a bulk load, a backfill) makes one write per merchant and mode rather than one per row on the same
-- counter row. A session never changes merchant or mode, so only its status moves it in or out of the count.
create function count_in_progress_sessions() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into in_progress_session_counts as c (merchant_id, mode, in_progress)
      select merchant_id, mode, count(*) from new_rows
      where status in ('pending', 'awaiting_payment', 'confirming')
      group by merchant_id, mode
    on conflict (merchant_id, mode) do update set in_progress = c.in_progress + excluded.in_progress;
  else
    update in_progress_session_counts c set in_progress = c.in_progress - gone.n
    from (select merchant_id, mode, count(*) as n from old_rows
          where status in ('pending', 'awaiting_payment', 'confirming') group by merchant_id, mode) gone
    where c.merchant_id = gone.merchant_id and c.mode = gone.mode;
  end if;
  return null;
end $$;
create trigger sessions_in_progress_insert after insert on sessions
  referencing new table as new_rows for each statement execute function count_in_progress_sessions();
create trigger sessions_in_progress_delete after delete on sessions
  referencing old table as old_rows for each statement execute function count_in_progress_sessions();

-- A status write is one session at a time; the row trigger's condition keeps every other update of a session (its
-- reason, its pending workflow input) free of it.
create function count_in_progress_session_move() returns trigger language plpgsql as $$
begin
  if new.status in ('pending', 'awaiting_payment', 'confirming') then
    insert into in_progress_session_counts as c (merchant_id, mode, in_progress) values (new.merchant_id, new.mode, 1)
    on conflict (merchant_id, mode) do update set in_progress = c.in_progress + 1;
  else
    update in_progress_session_counts set in_progress = in_progress - 1 where merchant_id = old.merchant_id and mode = old.mode;
  end if;
  return null;
end $$;
create trigger sessions_in_progress_move after update of status on sessions for each row
  when ((old.status in ('pending', 'awaiting_payment', 'confirming')) is distinct from (new.status in ('pending', 'awaiting_payment', 'confirming')))
  execute function count_in_progress_session_move();

-- Bank accounts a merchant (its organisation) accepts bank transfers into.
create table bank_accounts (
  id              text primary key check (id like 'ba\_%'),
  merchant_id     text not null references merchants (id),
  account_name    text not null check (account_name <> ''),
  bank_name       text not null check (bank_name <> ''),
  iban            text,
  swift_bic       text,
  account_number  text,
  sort_code       text,
  currency        text not null check (currency ~ '^[A-Z]{3}$'),
  active          boolean not null default true,
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  -- A customer must be able to pay the account: either an IBAN or a domestic account number.
  check (iban is not null or account_number is not null)
);
-- One active account per currency, so the account a customer is told to pay is never a guess.
create unique index bank_accounts_active_currency on bank_accounts (merchant_id, currency) where active;

-- Rate limiting and Idempotency-Key replay live in Postgres so that every API replica shares one count and one
-- record of each key. Each limit counts in fixed one-minute windows, one row per subject rewritten by a single
-- upsert per request.

create table rate_limit_windows (
  api_key_id    text primary key references api_keys (id) on delete cascade,
  window_start  timestamptz not null,
  request_count integer not null
);

-- Requests made with a session token (the hosted page) count per session: a leaked checkout URL cannot be used to
-- hammer the service.
create table session_rate_limit_windows (
  session_id    text primary key references sessions (id) on delete cascade,
  window_start  timestamptz not null,
  request_count integer not null
);

-- Sign-in attempts per client address.
create table sign_in_rate_limit_windows (
  ip             text primary key,
  window_start   timestamptz not null,
  request_count  integer not null
);

-- Failed authentications (refused API keys, forged session tokens) per client address: an address over
-- AUTH_FAILURES_PER_IP_PER_MINUTE is answered 429 by every API replica until its window ends.
create table auth_failure_windows (
  ip             text primary key,
  window_start   timestamptz not null,
  request_count  integer not null
);

-- Session-token requests (the hosted page) per merchant across all its sessions: one merchant's many sessions
-- cannot flood the service (RATE_LIMIT_SESSION_TOKENS_PER_MERCHANT_PER_MINUTE).
create table merchant_session_token_rate_limit_windows (
  merchant_id    text primary key references merchants (id),
  window_start   timestamptz not null,
  request_count  integer not null
);

-- One row per Idempotency-Key of a merchant in one mode. While the first request runs, locked_by names
-- it and response_status is null; once it finishes, its response is kept for replay. Rows older than
-- 24 hours are treated as absent and purged.
create table idempotency_keys (
  merchant_id      text not null references merchants (id),
  mode             text not null check (mode in ('test', 'live')),
  idempotency_key  text not null,
  -- SHA-256 of method, path and the canonical JSON of the body: a reuse must be the same request.
  request_hash     bytea not null,
  locked_by        text,
  locked_at        timestamptz,
  response_status  integer,
  response_body    jsonb,
  created_at       timestamptz not null default now(),
  completed_at     timestamptz,
  primary key (merchant_id, mode, idempotency_key),
  check ((response_status is null) = (completed_at is null))
);
create index idempotency_keys_created on idempotency_keys (created_at);

-- Payment lifecycle: quotes, deposit addresses and watches, deposits, payments, settlements, webhooks.

create table quotes (
  id                 text primary key check (id like 'qt\_%'),
  mode               text not null check (mode in ('test', 'live')),
  session_id         text references sessions (id),
  token              text not null,
  chain              text not null,
  amount_usd_cents   bigint not null check (amount_usd_cents > 0),
  token_base_units   numeric(78, 0) not null,
  decimals           integer not null,
  -- USD price of one token as a decimal string, and where it came from.
  rate               text not null,
  price_source       text not null,
  expires_at         timestamptz not null,
  created_at         timestamptz not null default now()
);

-- Test and live deposit addresses come from separate seeds (DEPOSIT_MNEMONIC_TEST, DEPOSIT_MNEMONIC_LIVE), each
-- with its own derivation index sequence, never reused: deposit_address_index_seq numbers live addresses.
create sequence deposit_address_index_seq as bigint minvalue 0 start 0;
create sequence deposit_address_test_index_seq as bigint minvalue 0 start 0;

create table deposit_addresses (
  session_id        text primary key references sessions (id),
  derivation_index  bigint not null,
  evm_address       text not null,
  tron_address      text not null,
  -- Solana deposit addresses derive from the seed along a hardened-only path, so only the signer worker can
  -- compute them (docs/settlement.md#rules). The worker reserves a session's index and writes its EVM and Tron
  -- addresses (from xpubs) at once; the Solana address is written once, when a Solana pair is first chosen, and
  -- never changes.
  solana_address    text,
  created_at        timestamptz not null default now(),
  mode              text not null constraint deposit_addresses_mode check (mode in ('test', 'live')),
  -- A session's EVM and Tron deposit addresses are either HD addresses (BIP-44 from the session's derivation
  -- index: moving their funds needs the seed and native coin for gas) or CREATE2 addresses of a DepositForwarder
  -- clone (no key; swept by the factory that deploys the clone). The scheme is recorded per family, with the
  -- factory of a forwarder address, so a sweep knows the path for each address even after the configured factory
  -- changes.
  evm_scheme        text not null default 'hd' constraint deposit_addresses_evm_scheme check (evm_scheme in ('hd', 'forwarder')),
  tron_scheme       text not null default 'hd' constraint deposit_addresses_tron_scheme check (tron_scheme in ('hd', 'forwarder')),
  evm_factory       text,
  tron_factory      text,
  constraint deposit_addresses_mode_index unique (mode, derivation_index),
  constraint deposit_addresses_evm_factory check ((evm_scheme = 'forwarder') = (evm_factory is not null)),
  constraint deposit_addresses_tron_factory check ((tron_scheme = 'forwarder') = (tron_factory is not null))
);

-- Solana deposit addresses the signer derived ahead of the sessions that will take them: a Solana address needs
-- the seed (SLIP-0010 is hardened-only), so the signer derives the next indexes' addresses whenever it derives one,
-- and the worker takes a session's from here when it is there, without a round trip to the signer. Public data:
-- the address of an index, nothing that spends it.
create table solana_deposit_address_pool (
  mode             text not null check (mode in ('test', 'live')),
  derivation_index bigint not null check (derivation_index >= 0),
  address          text not null,
  primary key (mode, derivation_index)
);

-- Chain indexers: where each (chain, network) has got to, the block hashes it passed through (to find the
-- common ancestor after a reorg), and what each deposit has already told its session workflow.

-- The last block fully processed: every matching transfer at or below it is in deposits.
create table indexer_cursors (
  chain         text not null,
  network       text not null check (network in ('mainnet', 'testnet')),
  block_number  bigint not null check (block_number >= 0),
  block_hash    text not null,
  updated_at    timestamptz not null default now(),
  primary key (chain, network)
);

-- Hashes of recently processed blocks (the end of each scanned range). After a reorg the newest one that is
-- still canonical is where scanning resumes. Pruned to a window a few times the chain's confirmation depth.
create table indexer_block_hashes (
  chain         text not null,
  network       text not null check (network in ('mainnet', 'testnet')),
  block_number  bigint not null,
  block_hash    text not null,
  primary key (chain, network, block_number)
);

-- What the indexers look for: an address on one chain of one network, until a deadline.
create table deposit_watches (
  session_id    text not null references sessions (id),
  chain         text not null,
  network       text not null check (network in ('mainnet', 'testnet')),
  address       text not null,
  watch_until   timestamptz not null,
  created_at    timestamptz not null default now(),
  -- Closing the gap between a new watch and the indexer learning of it. The indexer hears of a watch through
  -- NOTIFY (or its periodic reload); blocks it scanned in between were matched without the new address. A deposit
  -- to that address can only land in a block mined after the watch was written, so after the indexer's cursor at
  -- that moment. A trigger records that cursor; the indexer re-scans from it for each watch it has not yet
  -- covered, then stamps `backfilled_at`. No cursor yet (the indexer never ran) leaves it null: the indexer's
  -- first range then starts after the watch exists.
  indexed_from  bigint,
  backfilled_at timestamptz,
  primary key (session_id, chain)
);
create index deposit_watches_active on deposit_watches (chain, network, watch_until);
create index deposit_watches_to_backfill on deposit_watches (chain, network) where backfilled_at is null;

-- A new or changed watch names itself in its notification, so an indexer reads that one row instead of reloading
-- every open watch of its chain: reloading per new watch costs O(open sessions) each time, O(N²) in all. The
-- payload `<chain>:<network>:<session_id>` stays far below NOTIFY's 8000 bytes (session ids are `cs_` + ULID). A
-- lost notification is covered by the indexer's periodic full reload and the backfill.
create function notify_deposit_watch() returns trigger language plpgsql as $$
begin
  perform pg_notify('deposit_watches', new.chain || ':' || new.network || ':' || new.session_id);
  return new;
end $$;
-- Stamping backfilled_at must not wake every indexer again: notify only when what is matched changes.
create trigger deposit_watches_notify after insert or update of address, watch_until on deposit_watches
  for each row execute function notify_deposit_watch();

create function record_deposit_watch_cursor() returns trigger language plpgsql as $$
begin
  new.indexed_from := (select block_number from indexer_cursors where chain = new.chain and network = new.network);
  return new;
end $$;
create trigger deposit_watches_cursor before insert on deposit_watches
  for each row execute function record_deposit_watch_cursor();

create table payments (
  id                  text primary key check (id like 'pay\_%'),
  session_id          text not null unique references sessions (id),
  quote_id            text references quotes (id),
  token               text not null,
  chain               text not null,
  deposit_address     text not null,
  expected_base_units numeric(78, 0) not null,
  received_base_units numeric(78, 0) not null default 0,
  decimals            integer not null,
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  -- What the hosted page needs to show a chosen payment again after a reload, without asking the workflow
  -- (reads never depend on a worker): the token contract the customer pays in and, on EVM chains, the chain
  -- id of its network. With them the API re-derives the payment URI (domain/chains/paymentUri.ts) for any amount,
  -- the full one and, after an underpayment, the rest still due. A row without them has the page offer the
  -- choice again, and choosing rewrites the row.
  token_address       text,
  evm_chain_id        integer
);

-- Each on-chain transfer once. The indexer owns the chain facts (block, stage, confirmations);
-- the session workflow owns whether it was credited to the payment or is a late deposit to refund.
create table deposits (
  chain             text not null,
  tx_hash           text not null,
  log_index         integer not null,
  network           text not null check (network in ('mainnet', 'testnet')),
  session_id        text references sessions (id),
  token             text not null,
  amount_base_units numeric(78, 0) not null check (amount_base_units >= 0),
  from_address      text not null,
  to_address        text not null,
  block_number      bigint not null,
  block_hash        text not null,
  stage             text not null check (stage in ('detected', 'confirmed', 'reorged')),
  confirmations     integer not null default 0,
  credited          boolean not null default false,
  late              boolean not null default false,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now(),
  -- The signal outbox lives on the deposit row: stage/confirmations/block_hash say what is true on chain, the
  -- signalled_* columns what the session workflow has been told. The indexer sends whatever differs.
  signalled_stage   text check (signalled_stage in ('detected', 'confirmed', 'reorged')),
  -- The block the last depositDetected named; a deposit re-mined into another block is reorged, then detected again.
  signalled_block_hash text,
  signalled_confirmations integer not null default 0,
  -- Steps signalled so far. Part of each signal's Temporal request id: a resend after a crash between sending
  -- and recording carries the same id and Temporal drops it; the next step carries a new one.
  signal_seq        integer not null default 0,
  primary key (chain, tx_hash, log_index)
);
create index deposits_session on deposits (session_id);
-- The rows an indexer revisits every tick: awaiting confirmations, or with a signal still to send.
create index deposits_indexer_open on deposits (chain, network)
  where stage = 'detected' or signalled_stage is distinct from stage;

-- A settlement's row is written before its provider moves any money, so a retry after a crash finds it and
-- finishes the same settlement with the same provider instead of starting a second one. Until the provider
-- answers, the row is pending: no reference and no settlement time yet.
create table settlements (
  payment_id        text primary key references payments (id),
  session_id        text not null references sessions (id),
  provider          text not null,
  reference         text,
  amount_usdc_base_units numeric(78, 0) not null,
  chain             text not null default 'solana',
  settled_at        timestamptz,
  status            text not null default 'pending' check (status in ('pending', 'settled')),
  constraint settlements_settled_complete check (status = 'pending' or (reference is not null and settled_at is not null))
);

create table webhook_deliveries (
  id             text primary key check (id like 'wh\_%'),
  session_id     text not null references sessions (id),
  event          text not null,
  -- The status change that caused it: one delivery per event of one change, however often it is asked for.
  status_version integer not null,
  url            text not null,
  -- The exact JSON sent (jsonb would reorder keys), so every retry carries byte-identical, re-signed bodies.
  body           text not null,
  state          text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
  created_at     timestamptz not null default now(),
  delivered_at   timestamptz,
  unique (session_id, status_version, event)
);

create table webhook_attempts (
  id           bigserial primary key,
  delivery_id  text not null references webhook_deliveries (id),
  attempt      integer not null,
  started_at   timestamptz not null,
  status_code  integer,
  latency_ms   integer not null,
  error        text,
  unique (delivery_id, attempt)
);

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

-- The merchant dashboard: its users, their invitations and cookie sessions, and an audit trail general enough for
-- the admin CLI to write to as well (actor_kind 'operator').

create table merchant_users (
  id               text primary key check (id like 'usr\_%'),
  merchant_id      text not null references merchants (id),
  -- Stored lower-cased: one address is one user across all merchants, so sign-in needs no merchant.
  email            text not null unique check (email = lower(email)),
  -- Null until the invitation is accepted.
  password_hash    text,
  -- A secret being enrolled has totp_enabled_at null; sign-in asks for a code only once it is set.
  totp_secret      text,
  totp_enabled_at  timestamptz,
  failed_sign_ins  integer not null default 0,
  locked_until     timestamptz,
  created_at       timestamptz not null default now()
);
create index merchant_users_merchant on merchant_users (merchant_id);

-- One-time links: only the SHA-256 of the token is stored.
create table user_invites (
  token_hash  bytea primary key,
  user_id     text not null references merchant_users (id),
  expires_at  timestamptz not null,
  used_at     timestamptz,
  created_at  timestamptz not null default now()
);

-- Cookie sessions: only the SHA-256 of the cookie value is stored.
create table dashboard_sessions (
  id_hash       bytea primary key,
  user_id       text not null references merchant_users (id),
  csrf_token    text not null,
  created_at    timestamptz not null default now(),
  last_seen_at  timestamptz not null default now()
);
create index dashboard_sessions_user on dashboard_sessions (user_id);

create table audit_events (
  id           bigserial primary key,
  actor_kind   text not null check (actor_kind in ('user', 'operator')),
  actor_id     text not null,
  merchant_id  text references merchants (id),
  mode         text check (mode in ('test', 'live')),
  action       text not null,
  changes      jsonb not null default '{}',
  at           timestamptz not null default now()
);
create index audit_events_merchant on audit_events (merchant_id, at);

-- The admin CLI's audit trail: one row per state-changing command, written before the command runs and completed
-- when it ends, so a command that dies half-way still leaves its row (outcome null). A table of its own rather
-- than audit_events: the API role inserts into audit_events for dashboard users, and no service role may write an
-- operator's trail; only the owner (migrate, the admin CLI) can.
create table admin_audit_events (
  id               bigserial primary key,
  operator         text not null,
  -- 'option' (--operator), 'env' (CHECKOUT_OPERATOR) or 'os' (the login name, a fallback).
  operator_source  text not null check (operator_source in ('option', 'env', 'os')),
  -- '<group>.<command>', as audit_events names actions ('user.invite').
  action           text not null,
  -- The options as given; a secret option's value is never stored, only '[redacted]'.
  arguments        jsonb not null default '{}',
  -- The ids the command created or changed.
  targets          text[] not null default '{}',
  outcome          text check (outcome in ('ok', 'refused', 'failed')),
  error            text,
  at               timestamptz not null default now(),
  finished_at      timestamptz,
  check ((outcome is null) = (finished_at is null)),
  check ((outcome in ('refused', 'failed')) = (error is not null))
);
create index admin_audit_events_at on admin_audit_events (at);

-- Write-ahead chain writes (docs/settlement.md#rules). A transaction the service signs is a chain_intents row
-- first, under an id derived from what it does (payout:<pay_id>), then its signed bytes and what binds them to
-- the chain are stored before anything is broadcast, so every retry sends the same bytes. A new transaction is
-- signed only once the old one is provably dead; the old signature stays here.
--   Solana: bound to a blockhash, so dead past its last valid block height.
--   EVM: bound to its sender's nonce. The row keeps the sender, the nonce it was signed with and the call itself,
--   so a stuck transaction can be signed again with the same nonce and higher fees (the old hash kept in
--   superseded_signatures, since either may still be mined), and a nonce another transaction took can be replaced
--   by a fresh one. `signature` holds the transaction hash.
--   Tron: no nonce; bound to a reference block and an expiration time the signer picks, and a txID (sha256 of
--   raw_data) can be included once, ever. The row keeps the sender, the fixed call (contract, selector, parameter,
--   fee limit, call value) and, once signed, the expiration: the proof that an unseen transaction is dead needs it.
--   The fee the sender paid (sun) is recorded when the transaction lands, whether it succeeded or reverted.
create table chain_intents (
  id                      text primary key,
  chain                   text not null constraint chain_intents_chain
                            check (chain in ('solana', 'ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc', 'tron')),
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
  mode                    text check (mode in ('test', 'live')),
  sender                  text,
  nonce                   bigint check (nonce >= 0),
  -- EVM { to, data, value }, Tron { contract, functionSelector, parameter, feeLimit, callValue }: what every
  -- signature of this intent calls, whatever its nonce and fees.
  call                    jsonb,
  block_number            bigint,
  expires_at              timestamptz,
  fee_paid                numeric(78, 0) check (fee_paid >= 0),
  constraint chain_intents_evm_fields check (
    chain = 'solana' or (mode is not null and sender is not null and call is not null)
  ),
  constraint chain_intents_signed_bytes check (
    (status = 'prepared') = (signature is null)
    and (signature is null) = (wire_transaction is null)
    and (chain <> 'solana' or (signature is null) = (last_valid_block_height is null))
    and (chain in ('solana', 'tron') or (signature is null) = (nonce is null))
    and (chain <> 'tron' or ((signature is null) = (expires_at is null) and nonce is null and last_valid_block_height is null))
  )
);
-- Signed and not landed: what a treasury's balance still holds but has promised.
create index chain_intents_unlanded on chain_intents (id) where status in ('signed', 'broadcast');

-- The next nonce each relayer signs with, per network: taken under this row's lock in the transaction that stores
-- the signed bytes, so two signers never share a nonce and a crash before commit gives the nonce back.
create table evm_nonces (
  chain      text not null,
  mode       text not null check (mode in ('test', 'live')),
  sender     text not null,
  next_nonce bigint not null check (next_nonce >= 0),
  updated_at timestamptz not null default now(),
  primary key (chain, mode, sender)
);

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
  finalized_at      timestamptz,
  -- The block time the chain records: a settled payment's settled_at, not the moment the service noticed.
  block_time        timestamptz
);

-- Double-entry ledger (domain/ledger/ledger.ts): amounts in base units, debits positive, credits negative. Entries are
-- posted in groups; each group sums to zero per asset, checked when the transaction commits. Append-only: a
-- mistake is corrected by posting another group. Every entry says which mode's money it moves: each mode's
-- treasury is its own wallet on its own network, reconciled apart.
create table ledger_entries (
  id         bigserial primary key,
  group_id   text not null,
  account    text not null,
  asset      text not null,
  amount     numeric(78, 0) not null check (amount <> 0),
  reference  text not null,
  created_at timestamptz not null default now(),
  mode       text not null check (mode in ('test', 'live')),
  unique (group_id, account, asset)
);
create index ledger_entries_reference on ledger_entries (reference);
create index ledger_entries_account on ledger_entries (mode, account, asset);

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

-- One row per reconciliation run and mode: what the ledger and the chain said of each reconciled account and
-- asset, and the differences (domain/ledger/reconciliation.ts), so the last run can be shown and measured without a chain.
create table reconciliation_runs (
  id          bigserial primary key,
  mode        text not null check (mode in ('test', 'live')),
  ran_at      timestamptz not null default now(),
  -- [{account, asset, ledger, observed}] with base-unit amounts as decimal strings.
  balances    jsonb not null,
  -- The balances whose ledger and observed amounts differ, in the same shape with `difference` (observed - ledger).
  differences jsonb not null
);
create index reconciliation_runs_latest on reconciliation_runs (mode, ran_at desc);

-- Solana deposit sweeps (docs/settlement.md#deposit-sweeps): a batch of deposit accounts emptied into the treasury
-- and closed by one transaction, written ahead as the chain intent sweep:solana:<batch> (the sweep's id). What a
-- landed sweep moved is read from its balance deltas, never from what was planned.
create table solana_sweeps (
  id            text primary key references chain_intents (id) check (id like 'sweep:solana:%'),
  mode          text not null check (mode in ('test', 'live')),
  -- The workflow run that planned it and its place in that plan: a retried plan finds its batches again.
  run_key       text not null,
  batch         integer not null check (batch >= 0),
  -- The wallet that pays the fee and receives the USDC and the rent.
  treasury      text not null,
  mint          text not null,
  status        text not null default 'pending'
                  check (status in ('pending', 'submitted', 'confirmed', 'finalized', 'failed', 'empty')),
  signature     text,
  usdc_swept    numeric(78, 0),
  fee_lamports  numeric(78, 0),
  rent_lamports numeric(78, 0),
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now(),
  landed_at     timestamptz,
  unique (run_key, batch)
);
create index solana_sweeps_unlanded on solana_sweeps (mode, created_at) where status in ('pending', 'submitted');

create table solana_sweep_accounts (
  sweep_id         text not null references solana_sweeps (id),
  -- The deposit address (the token account's owner and authority) and the seed index its key derives from.
  owner            text not null,
  derivation_index bigint not null,
  token_account    text not null,
  -- What the plan found to take: the balance, up to what the ledger holds for the address. The transaction takes
  -- at most this, and less if the account holds less when it is signed.
  planned_base_units numeric(78, 0) not null,
  swept_base_units numeric(78, 0),
  primary key (sweep_id, token_account)
);
create index solana_sweep_accounts_owner on solana_sweep_accounts (owner);

-- Sweeps of EVM and Tron deposit addresses into the chain's collector (docs/settlement.md#evm-forwarder-sweeps and
-- the sections after it), of two kinds:
--   forwarder: a batch of CREATE2 deposit addresses emptied into the factory's collector by one sweepMany call from
--   the relayer, written ahead as the chain intent sweep:<chain>:<batch> (the sweep's id). The TVM runs the same
--   DepositFactory, so a Tron sweep is the same batch.
--   hd: one BIP-44 deposit address (deposit_addresses.evm_scheme or tron_scheme = 'hd'), which no factory can sweep:
--   the address itself signs transfer(collector, amount), written ahead as the chain intent sweep-hd:<chain>:<id>
--   (the sweep's id), after the relayer's top-up of its gas, topup:<chain>:<id> (then topup:<chain>:<id>:<n> should
--   fees rise past what the earlier ones paid for before the transfer is signed). What the top-ups sent and their
--   gas are recorded as each lands, with their ledger postings; `topup_rounds` counts them.
-- What a landed sweep moved is read from its events (Swept, or the token's Transfer), never from what was planned.
-- On Tron the addresses are base58 (as deposit_addresses.tron_address), and the *_wei columns hold sun.
create table collector_sweeps (
  id             text primary key references chain_intents (id),
  mode           text not null check (mode in ('test', 'live')),
  chain          text not null check (chain in ('ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc', 'tron')),
  token          text not null check (token in ('USDC', 'USDT')),
  token_address  text not null,
  -- A forwarder sweep's factory (deposit_addresses.evm_factory or tron_factory): the call goes to it.
  factory        text,
  -- The workflow run that planned it and its place in that plan: a retried plan finds its batches again.
  run_key        text not null,
  batch          integer not null check (batch >= 0),
  status         text not null default 'pending' check (status in ('pending', 'submitted', 'finalized', 'failed')),
  tx_hash        text,
  -- Where the landed call sits: a deposit logged after (block_number, last_log_index) arrived after the sweep.
  block_number   bigint,
  last_log_index integer,
  moved_base_units numeric(78, 0),
  gas_wei        numeric(78, 0),
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now(),
  landed_at      timestamptz,
  kind           text not null default 'forwarder' constraint collector_sweeps_kind check (kind in ('forwarder', 'hd')),
  -- Where an HD sweep sends the tokens (EVM_DEPOSIT_COLLECTOR_<MODE> or TRON_DEPOSIT_COLLECTOR_<MODE> when it was
  -- planned); a forwarder sweep's destination is fixed in its factory.
  collector      text,
  topup_rounds   integer not null default 0 check (topup_rounds >= 0),
  topup_wei      numeric(78, 0) check (topup_wei >= 0),
  topup_gas_wei  numeric(78, 0) check (topup_gas_wei >= 0),
  unique (run_key, batch),
  constraint collector_sweeps_kind_fields check (
    (kind = 'forwarder' and id like 'sweep:%' and id not like 'sweep:solana:%' and factory is not null and collector is null and topup_rounds = 0 and topup_wei is null)
    or (kind = 'hd' and id like 'sweep-hd:%' and factory is null and collector is not null
        and chain in ('ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc', 'tron'))
  )
);
create index collector_sweeps_unlanded on collector_sweeps (mode, chain, token, created_at) where status in ('pending', 'submitted');

create table collector_sweep_addresses (
  sweep_id           text not null references collector_sweeps (id),
  -- EVM: lowercase hex, as the Swept events are matched. Tron: base58.
  address            text not null,
  -- A forwarder's CREATE2 salt; an HD address has none: its key is derived from the session's derivation index.
  salt               text,
  session_id         text not null references sessions (id),
  -- The balance the plan read; a forwarder sweep takes whatever is there when it runs.
  planned_base_units numeric(78, 0) not null,
  swept_base_units   numeric(78, 0),
  primary key (sweep_id, address)
);
create index collector_sweep_addresses_address on collector_sweep_addresses (address);

-- CCTP V2 transfers of USDC from a DepositCollector on an EVM chain to the Solana treasury
-- (docs/settlement.md#cctp-transfers): one row per transfer_<id> workflow, written before the burn is prepared,
-- carrying what each stage learnt. The burn and the receive are chain intents (burn:<id>, recv:<nonce>); this row
-- links them and holds the attested message.
create table transfers (
  id                 text primary key,
  mode               text not null check (mode in ('test', 'live')),
  source_chain       text not null check (source_chain in ('ethereum', 'optimism', 'arbitrum', 'base', 'polygon')),
  -- The collector's USDC burned, and the most the bridge may keep of it, in USDC base units.
  amount             numeric(78, 0) not null check (amount > 0),
  max_fee            numeric(78, 0) not null check (max_fee >= 0 and max_fee < amount),
  speed              text not null check (speed in ('standard', 'fast')),
  stage              text not null default 'burning'
                       check (stage in ('burning', 'burned', 'attested', 'received', 'failed')),
  burn_intent_id     text not null references chain_intents (id),
  burn_tx_hash       text,
  -- bytes32 hex, filled by the attestation service; the receive's intent is recv:<nonce>.
  nonce              text,
  message            text,
  attestation        text,
  receive_intent_id  text references chain_intents (id),
  received_amount    numeric(78, 0),
  failure            text,
  created_at         timestamptz not null default now(),
  updated_at         timestamptz not null default now(),
  burned_at          timestamptz,
  attested_at        timestamptz,
  received_at        timestamptz,
  check ((message is null) = (attestation is null)),
  check (stage not in ('attested', 'received') or (message is not null and nonce is not null)),
  check (stage <> 'received' or received_amount is not null)
);
-- One transfer in flight per source chain and mode: a second burn would race the first for the collector's balance.
create unique index transfers_one_in_flight on transfers (mode, source_chain) where stage in ('burning', 'burned', 'attested');
create index transfers_in_flight on transfers (stage, created_at) where stage in ('burning', 'burned', 'attested');

-- The relayers' native-coin balances as the signer last read them, for the relayer gas metric. Only the signer
-- knows a relayer's address (it derives it from the key) and reads its chains; the API's metrics read this table,
-- so a scrape makes no RPC call and needs no relayer configuration of its own.
create table relayer_balances (
  chain       text not null,
  mode        text not null check (mode in ('test', 'live')),
  address     text not null,
  balance_wei numeric(78, 0) not null check (balance_wei >= 0),
  observed_at timestamptz not null,
  primary key (chain, mode)
);
