-- Test and live deposit addresses come from separate seeds (DEPOSIT_MNEMONIC_TEST, DEPOSIT_MNEMONIC_LIVE),
-- each with its own index sequence: deposit_address_index_seq now numbers live addresses only. An index is
-- unique within its mode. The test sequence starts after every index test mode has used, so a test seed
-- that equals the one used before the split never hands out an address twice.
alter table deposit_addresses add column mode text;
update deposit_addresses d set mode = s.mode from sessions s where s.id = d.session_id;
alter table deposit_addresses alter column mode set not null;
alter table deposit_addresses add constraint deposit_addresses_mode check (mode in ('test', 'live'));
alter table deposit_addresses drop constraint deposit_addresses_derivation_index_key;
alter table deposit_addresses add constraint deposit_addresses_mode_index unique (mode, derivation_index);

create sequence deposit_address_test_index_seq as bigint minvalue 0 start 0;
select setval('deposit_address_test_index_seq', coalesce((select max(derivation_index) from deposit_addresses where mode = 'test'), -1) + 1, false)
where exists (select 1 from deposit_addresses where mode = 'test');
