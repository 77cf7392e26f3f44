-- Every API replica caches key lookups by key hash (api/apiKeyCache.ts, domain/security/lookupCache.ts); a written key names its hash on the
-- 'api_keys' channel so each replica drops its entry at once. A trigger rather than a notify in the code that
-- writes: revocation and allowlist changes come from the admin CLI, the dashboard and plain SQL alike.
-- The payload is the hash in hex (64 characters), which tells a listener nothing it could use as a key.
create or replace function notify_api_key_change() returns trigger language plpgsql as $$
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
