-- The admin CLI's audit trail: one row per state-changing command, written before the
-- command runs and completed when it ends, so a command that dies half-way still leaves its row (outcome
-- null). A table of its own rather than audit_events: the API role inserts into audit_events for dashboard
-- users, and no service role may write an operator's trail; only the owner (migrate, the admin CLI) can.
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
