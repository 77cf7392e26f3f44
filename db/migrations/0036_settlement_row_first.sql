-- A settlement's row is written before its provider moves any money, so a retry after a crash finds it and
-- finishes the same settlement with the same provider instead of starting a second one. Until the provider
-- answers, the row is pending: no reference and no settlement time yet.
alter table settlements
  add column status text not null default 'settled' check (status in ('pending', 'settled')),
  alter column reference drop not null,
  alter column settled_at drop not null,
  add constraint settlements_settled_complete check (status = 'pending' or (reference is not null and settled_at is not null));

alter table settlements alter column status set default 'pending';
