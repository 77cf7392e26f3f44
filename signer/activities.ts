// Every activity the signer worker registers (signer/worker.ts): those that need signing material,
// which no other process holds (docs/settlement.md#r4-keys-in-the-signer-alone). Workflows import the type only.
import type { Sql } from '../db/client';
import type { Mode } from '../domain/wire/session';
import { heartbeating } from '../activities/heartbeating';
import { createDeriveSolanaDepositAddress } from './depositAddresses/solanaDepositAddress';
import type { DepositSeeds } from '../domain/addresses/depositSeed';
import type { SolanaChainWriterDeps } from './chainWrites/solanaChainWriter';
import type { TreasuryPayoutDeps } from './payouts/treasuryPayout';
import { createPayTreasuryPayout } from './payouts/treasuryPayouts';
import type { RefundPayerDeps } from './refunds/refundPayment';
import { createPayRefund } from './refunds/refundPayments';
import { createSolanaSweepActivities } from './sweeps/solanaSweeps';
import type { EvmSweepDeps } from './sweeps/evmSweep';
import { createEvmSweepActivities, type EvmSweeperKey } from './sweeps/evmSweeps';
import type { TronSweepDeps } from './sweeps/tronSweep';
import { createCctpTransferActivities, type CctpRoutes } from './transfers/cctpTransfers';
import { createInventoryWithdrawalActivities, type InventoryWithdrawers } from './inventory/inventoryWithdrawals';
import { createUsdtSwapActivities, type UsdtSwapRoutes } from './swaps/usdtSwaps';

export interface SignerDeps {
  /** Made once at start from DEPOSIT_MNEMONIC_TEST / DEPOSIT_MNEMONIC_LIVE (seed.ts `depositSeeds`). */
  depositSeeds: DepositSeeds;
  /**
   * Where each Solana address derived is recorded, and the next ones ahead (solanaAddressPool.ts): the worker takes them
   * only from there. None: Solana addresses are refused.
   */
  addressPool?: Sql;
  /** The Solana USDC treasury of each mode given SOLANA_TREASURY_KEY_TEST / _LIVE; a mode without one pays and sweeps nothing. */
  treasuries?: Partial<Record<Mode, TreasuryPayoutDeps>>;
  /** For each mode without a treasury key: its database and Solana node, to follow a payout written before the key went. */
  payoutFollowers?: Partial<Record<Mode, SolanaChainWriterDeps>>;
  /** Each mode's refund payer: its treasury, with what the signer checks a refund against (signer/refunds/). */
  refundPayers?: Partial<Record<Mode, RefundPayerDeps>>;
  /** The forwarder sweepers of each (EVM chain, mode) given EVM_RELAYER_KEY_<MODE> and an RPC endpoint. */
  evmSweepers?: Partial<Record<EvmSweeperKey, EvmSweepDeps>>;
  /** The Tron forwarder sweeper of each mode given TRON_RELAYER_KEY_<MODE> (and its network's HTTP API). */
  tronSweepers?: Partial<Record<Mode, TronSweepDeps>>;
  /** CCTP routes from each mode's EVM collectors to its treasury, where the relayer key and the chains are configured. */
  cctpRoutes?: CctpRoutes;
  /** Held-inventory withdrawals from each mode's collector on the EVM chains of held inventory (signer/inventory/). */
  inventoryWithdrawers?: InventoryWithdrawers;
  /** USDT→USDC swap routes in the collectors of the CCTP routes whose chains have a router and a quoter configured. */
  swapRoutes?: UsdtSwapRoutes;
}

export function createSignerActivities(deps: SignerDeps) {
  const sweeps = createSolanaSweepActivities({ depositSeeds: deps.depositSeeds, treasuries: deps.treasuries ?? {} });
  const evmSweeps = createEvmSweepActivities({ sweepers: deps.evmSweepers ?? {}, tronSweepers: deps.tronSweepers ?? {} });
  const transfers = createCctpTransferActivities(deps.cctpRoutes ?? {});
  const inventory = createInventoryWithdrawalActivities(deps.inventoryWithdrawers ?? {});
  const swaps = createUsdtSwapActivities(deps.swapRoutes ?? {});
  // Payout, refund and sweep passes wait on RPC calls: they beat, so a dead signer's pass is retried within seconds.
  return {
    deriveSolanaDepositAddress: createDeriveSolanaDepositAddress({
      depositSeeds: deps.depositSeeds,
      ...(deps.addressPool ? { addressPool: deps.addressPool } : {}),
    }),
    payTreasuryPayout: heartbeating(createPayTreasuryPayout(deps.treasuries ?? {}, deps.payoutFollowers ?? {})),
    payRefund: heartbeating(createPayRefund(deps.refundPayers ?? {}, deps.payoutFollowers ?? {})),
    planSolanaSweep: heartbeating(sweeps.planSolanaSweep),
    advanceSolanaSweep: heartbeating(sweeps.advanceSolanaSweep),
    planEvmSweep: heartbeating(evmSweeps.planEvmSweep),
    advanceEvmSweep: heartbeating(evmSweeps.advanceEvmSweep),
    startCctpTransfer: heartbeating(transfers.startCctpTransfer),
    burnCctpTransfer: heartbeating(transfers.burnCctpTransfer),
    pollCctpAttestation: heartbeating(transfers.pollCctpAttestation),
    receiveCctpTransfer: heartbeating(transfers.receiveCctpTransfer),
    advanceInventoryWithdrawal: heartbeating(inventory.advanceInventoryWithdrawal),
    startUsdtSwap: heartbeating(swaps.startUsdtSwap),
    advanceUsdtSwap: heartbeating(swaps.advanceUsdtSwap),
  };
}

export type SignerActivities = ReturnType<typeof createSignerActivities>;
