-- A session's EVM and Tron deposit addresses are either HD addresses (BIP-44 from the session's derivation
-- index: moving their funds needs the seed and native coin for gas) or CREATE2 addresses of a DepositForwarder clone
-- (no key; swept by the factory that deploys the clone). The scheme is recorded per family, with the factory of a
-- forwarder address, so a sweep knows the path for each address even after the configured factory changes. Every
-- address written before this migration is HD; the default keeps a worker from before it writing correct rows.
alter table deposit_addresses
  add column evm_scheme text not null default 'hd' constraint deposit_addresses_evm_scheme check (evm_scheme in ('hd', 'forwarder')),
  add column tron_scheme text not null default 'hd' constraint deposit_addresses_tron_scheme check (tron_scheme in ('hd', 'forwarder')),
  add column evm_factory text,
  add column tron_factory text,
  add constraint deposit_addresses_evm_factory check ((evm_scheme = 'forwarder') = (evm_factory is not null)),
  add constraint deposit_addresses_tron_factory check ((tron_scheme = 'forwarder') = (tron_factory is not null));
