-- Every status a session's read model took, in order, for the dashboard's timeline. Recorded by a trigger,
-- so whichever writer moves a session (the workflow's activities, simulate, operators) cannot forget it.
create table session_status_changes (
  id           bigserial primary key,
  session_id   text not null references sessions (id),
  from_status  text,
  to_status    text not null,
  at           timestamptz not null
);
create index session_status_changes_session on session_status_changes (session_id, id);

create or replace function record_session_status_change() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into session_status_changes (session_id, from_status, to_status, at) values (new.id, null, new.status, new.created_at);
  elsif new.status is distinct from old.status then
    insert into session_status_changes (session_id, from_status, to_status, at) values (new.id, old.status, new.status, new.updated_at);
  end if;
  return new;
end $$;
create trigger sessions_status_changes after insert or update of status on sessions
  for each row execute function record_session_status_change();
