-- HD EOA deposit addresses are swept too: sessions from before the forwarders keep BIP-44 deposit
-- addresses (deposit_addresses.evm_scheme = 'hd'), which no factory can sweep. Each such address is one sweep of
-- kind 'hd': the address itself signs transfer(collector, amount), written ahead as the chain intent
-- sweep-hd:<chain>:<id> (the sweep's id), after the relayer's top-up of its gas, topup:<chain>:<id> (then
-- topup:<chain>:<id>:<n> should fees rise past what the earlier ones paid for before the transfer is signed). What
-- the top-ups sent and their gas are recorded as each lands, with their ledger postings; `topup_rounds` counts them.
alter table evm_sweeps
  add column kind text not null default 'forwarder' constraint evm_sweeps_kind check (kind in ('forwarder', 'hd')),
  -- Where an HD sweep sends the tokens (EVM_DEPOSIT_COLLECTOR_<MODE> when it was planned); a forwarder sweep's
  -- destination is fixed in its factory.
  add column collector text,
  add column topup_rounds integer not null default 0 check (topup_rounds >= 0),
  add column topup_wei numeric(78, 0) check (topup_wei >= 0),
  add column topup_gas_wei numeric(78, 0) check (topup_gas_wei >= 0),
  alter column factory drop not null;
alter table evm_sweeps drop constraint evm_sweeps_id_check;
alter table evm_sweeps add constraint evm_sweeps_kind_fields check (
  (kind = 'forwarder' and id like 'sweep:%' and id not like 'sweep:solana:%' and factory is not null and collector is null and topup_rounds = 0 and topup_wei is null)
  -- An HD address's key signs an EVM transaction: HD sweeps exist on the EVM chains only, whatever chains later
  -- migrations let forwarder sweeps run on.
  or (kind = 'hd' and id like 'sweep-hd:%' and factory is null and collector is not null
      and chain in ('ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc'))
);

-- An HD address has no salt: its key is derived from the session's derivation index.
alter table evm_sweep_addresses alter column salt drop not null;
