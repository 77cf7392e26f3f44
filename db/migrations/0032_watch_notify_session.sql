-- A new or changed deposit watch names itself in its notification, so an indexer reads that one row instead of
-- reloading every open watch of its chain: reloading per new watch costs O(open sessions) each time, O(N²) in all.
-- The payload `<chain>:<network>:<session_id>` stays far below NOTIFY's 8000 bytes (session ids are `cs_` + ULID).
-- An indexer that does not understand it hears nothing it acts on and falls back on its periodic full reload,
-- as for a lost notification; the backfill (migration 0007) covers the blocks scanned meanwhile.
create or replace function notify_deposit_watch() returns trigger language plpgsql as $$
begin
  perform pg_notify('deposit_watches', new.chain || ':' || new.network || ':' || new.session_id);
  return new;
end $$;
