-- The workflow's own reason for each status change ("deposit 0x… confirmed with 64 confirmations",
-- "cancelled by merchant: …"), kept on the session with its status and copied into the timeline.
alter table sessions add column status_reason text;
alter table session_status_changes add column reason text;

create or replace function record_session_status_change() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into session_status_changes (session_id, from_status, to_status, at, reason) values (new.id, null, new.status, new.created_at, new.status_reason);
  elsif new.status is distinct from old.status then
    insert into session_status_changes (session_id, from_status, to_status, at, reason) values (new.id, old.status, new.status, new.updated_at, new.status_reason);
  end if;
  return new;
end $$;
