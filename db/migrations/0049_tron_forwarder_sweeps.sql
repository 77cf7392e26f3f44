-- Tron forwarder sweeps join the EVM ones: the TVM runs the same DepositFactory, so a Tron sweep is
-- the same sweepMany batch, written ahead as the chain intent sweep:tron:<batch>. Its addresses are kept in base58
-- as deposit_addresses.tron_address has them, and gas_wei holds the sun the relayer burned (energy and bandwidth).
alter table evm_sweeps drop constraint evm_sweeps_chain_check;
alter table evm_sweeps add constraint evm_sweeps_chain_check
  check (chain in ('ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc', 'tron'));
