-- The cap on open sessions counted the merchant's open sessions in the mode on every create, under the
-- merchant's lock: a create cost as much as the merchant had sessions open (0.4 ms of Postgres per create
-- at 1,800 open, and the live cap is 10,000). Open means pending, awaiting_payment, confirming or underpaid, before
-- expires_at. The first three are left by every session (at its expiry, or once its deposit is judged), so a
-- counter of the sessions in them, kept in the same transaction as every status write, stays small to correct:
-- the cap subtracts those of them past their expiry (normally none, or the few whose workflow has not yet moved
-- them) and adds the underpaid ones not yet expired. An underpaid session stays underpaid after its expiry
-- (docs/lifecycle.md), which is why it is not in the counter: its rows would pile up in the correction.
create table in_progress_session_counts (
  merchant_id text not null references merchants (id),
  mode        text not null check (mode in ('test', 'live')),
  in_progress integer not null check (in_progress >= 0),
  primary key (merchant_id, mode)
);

-- Inserts and deletes are counted once per statement, from its transition table, so a statement writing many
-- sessions (a bulk load, a backfill) makes one write per merchant and mode rather than one per row on the same
-- counter row. A session never changes merchant or mode, so only its status moves it in or out of the count.
create or replace function count_in_progress_sessions() returns trigger language plpgsql as $$
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
create or replace function count_in_progress_session_move() returns trigger language plpgsql as $$
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

insert into in_progress_session_counts (merchant_id, mode, in_progress)
  select merchant_id, mode, count(*) from sessions
  where status in ('pending', 'awaiting_payment', 'confirming')
  group by merchant_id, mode;

-- The two corrections read only their own rows; 0028's index of all four open statuses served the count alone.
create index sessions_in_progress on sessions (merchant_id, mode, expires_at)
  where status in ('pending', 'awaiting_payment', 'confirming');
create index sessions_underpaid on sessions (merchant_id, mode, expires_at) where status = 'underpaid';
drop index sessions_open;
