-- The merchant dashboard: its users, their invitations and cookie sessions, sign-in throttling, and an
-- audit trail general enough for the admin CLI to write to as well (actor_kind 'operator').

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

-- Sign-in attempts per client address in one-minute windows (the same scheme as rate_limit_windows).
create table sign_in_rate_limit_windows (
  ip             text primary key,
  window_start   timestamptz not null,
  request_count  integer not null
);

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
