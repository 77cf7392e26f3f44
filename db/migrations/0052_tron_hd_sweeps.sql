-- Tron HD deposit addresses are swept too: sessions from before the Tron forwarders keep BIP-44
-- addresses (deposit_addresses.tron_scheme = 'hd'), whose key (m/44'/195'/0'/0/<index>) signs a Tron transaction as
-- an EVM HD address's key signs an EVM one. 0048 allowed kind 'hd' on the EVM chains only; Tron joins them. On Tron
-- the addresses are base58 (as deposit_addresses.tron_address), the collector is TRON_DEPOSIT_COLLECTOR_<MODE>, and
-- topup_wei / topup_gas_wei / gas_wei hold sun.
alter table evm_sweeps drop constraint evm_sweeps_kind_fields;
alter table evm_sweeps add constraint evm_sweeps_kind_fields check (
  (kind = 'forwarder' and id like 'sweep:%' and id not like 'sweep:solana:%' and factory is not null and collector is null and topup_rounds = 0 and topup_wei is null)
  or (kind = 'hd' and id like 'sweep-hd:%' and factory is null and collector is not null
      and chain in ('ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc', 'tron'))
);
