-- A session's Solana deposit address and every address watched for it are the service's own
-- (docs/settlement.md#deposit-addresses-only-the-services-own). The worker's role writes both tables, so a holder of
-- its credentials could otherwise show a customer an address of theirs, or have a busy third-party address watched
-- for a victim's session. The Solana address must be the one the signer recorded for the row's index in
-- solana_deposit_address_pool (written by the signer's role alone); a watch's address must be one of its session's
-- deposit addresses. The table's owner (migrations, the operators' audited admin CLI) is trusted with everything and
-- not checked.
create function is_table_owner(relation oid) returns boolean language sql stable as $$
  select pg_has_role(current_user, (select relowner from pg_class where oid = relation), 'usage')
$$;

create function deposit_address_solana_from_signer() returns trigger language plpgsql as $$
begin
  if new.solana_address is null or is_table_owner(tg_relid) then return new; end if;
  if not exists (
    select from solana_deposit_address_pool p
    where p.mode = new.mode and p.derivation_index = new.derivation_index and p.address = new.solana_address
  ) then
    raise exception 'Solana address % is not the one the signer recorded for % index %', new.solana_address, new.mode, new.derivation_index
      using errcode = 'check_violation';
  end if;
  return new;
end $$;
create trigger deposit_addresses_solana_from_signer before insert or update of solana_address, mode, derivation_index on deposit_addresses
  for each row execute function deposit_address_solana_from_signer();

create function deposit_watch_of_own_address() returns trigger language plpgsql as $$
begin
  if is_table_owner(tg_relid) then return new; end if;
  if not exists (
    select from deposit_addresses d
    where d.session_id = new.session_id and new.address in (d.evm_address, d.tron_address, d.solana_address)
  ) then
    raise exception 'address % is not a deposit address of session %', new.address, new.session_id
      using errcode = 'check_violation';
  end if;
  return new;
end $$;
create trigger deposit_watches_own_address before insert or update of address, session_id on deposit_watches
  for each row execute function deposit_watch_of_own_address();
