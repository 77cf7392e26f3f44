-- Closing the gap between a new deposit watch and the indexer learning of it. The indexer hears of a watch
-- through NOTIFY (or its periodic reload); blocks it scanned in between were matched without the new address.
-- A deposit to that address can only land in a block mined after the watch was written, so after the indexer's
-- cursor at that moment. The trigger records that cursor; the indexer re-scans from it for each watch it has
-- not yet covered, then stamps `backfilled_at`. No cursor yet (the indexer never ran) leaves it null: the
-- indexer's first range then starts after the watch exists.
alter table deposit_watches
  add column indexed_from  bigint,
  add column backfilled_at timestamptz;

-- Watches written before this migration were matched by the indexers of the time; nothing to re-scan for them.
update deposit_watches set backfilled_at = now();

create or replace function record_deposit_watch_cursor() returns trigger language plpgsql as $$
begin
  new.indexed_from := (select block_number from indexer_cursors where chain = new.chain and network = new.network);
  return new;
end $$;
create trigger deposit_watches_cursor before insert on deposit_watches
  for each row execute function record_deposit_watch_cursor();

-- Stamping backfilled_at must not wake every indexer again: notify only when what is matched changes.
drop trigger deposit_watches_notify on deposit_watches;
create trigger deposit_watches_notify after insert or update of address, watch_until on deposit_watches
  for each row execute function notify_deposit_watch();

create index deposit_watches_to_backfill on deposit_watches (chain, network) where backfilled_at is null;
