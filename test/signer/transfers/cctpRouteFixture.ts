// The whole CCTP route on the stand-ins: a Hardhat chain playing ethereum (domain 0) with a test USDC, the
// TokenMessengerV2 stand-in and the production DepositCollector minting to the local Solana treasury's USDC
// account; the loopback attestation server signing with the local attester; the local Solana chain with its
// receive stand-in; a real Postgres, written through the signer's (worker's) database role. With `swaps`, Uniswap V3
// from its npm artifacts too, a USDT/USDC pool seeded at 1:1 and the collector set to swap through it.
import { createKeyPairSignerFromBytes, createSolanaRpc, getBase58Encoder } from '@solana/kit';
import { erc20Abi, parseEventLogs, type Address, type Hash } from 'viem';
import { createAttestationClient } from '../../../signer/cctp/attestationClient';
import { createEvmChainWriter, type EvmChainWriter } from '../../../signer/chainWrites/evmChainWriter';
import { associatedUsdcAccount } from '../../../domain/addresses/solanaTokenAccount';
import type { TreasuryPayoutDeps } from '../../../signer/payouts/treasuryPayout';
import { createCctpRoute, type CctpRouteDeps } from '../../../signer/transfers/cctpTransfer';
import type { UsdtSwapRouteDeps } from '../../../signer/swaps/usdtSwap';
import { deployUniswapV3, seedPool, type UniswapV3 } from '../../../toolchain/uniswap/uniswapV3';
import * as depositCollector from '../../../contracts/artifacts/depositCollector';
import { deployDepositCollector } from '../../../contracts/deployer';
import { createSql, type Sql } from '../../../db/client';
import { tokenMessengerV2Abi } from '../../../domain/cctp/cctpAbi';
import { solanaAddressBytes32 } from '../../../domain/cctp/depositForBurn';
import { startAttestationServer, type AttestationServer } from '../../../toolchain/cctp/attestationServer';
import { deployCctpStandIn, type CctpStandIn } from '../../../toolchain/cctp/cctpStandIn';
import { createLocalChain, type LocalChain } from '../../../toolchain/localChain/localChain';
import { startLocalSolana, type LocalSolana } from '../../../toolchain/localSolana/localSolana';
import { freePort } from '../../../toolchain/ports';
import { createTestDatabase, type TestDatabase } from '../../support/database';

const OWNER = 1;
export const RELAYER = 2;
const SLOT_MS = 20;
export const SWAP_POOL_FEE = 100;

export interface CctpRouteFixture {
  db: TestDatabase;
  /** As the signer's role writes: the grants are part of what is tested. */
  signerSql: Sql;
  evm: LocalChain;
  solana: LocalSolana;
  solanaRpc: ReturnType<typeof createSolanaRpc>;
  usdc: Address;
  standIn: CctpStandIn;
  collector: Address;
  attestationServer: AttestationServer;
  /** Moves the attestation server's clock on (it reads this offset on top of the real one). */
  advanceAttestationClock(ms: number): void;
  /** The relayer's chain writer as a fresh signer builds it: to stop a pass half way. */
  writer(): EvmChainWriter;
  /** What the signer is given for the route: a fresh writer, the same database and chains. */
  routeDeps(overrides?: Partial<CctpRouteDeps>): CctpRouteDeps;
  /** A route as a freshly started signer builds it: the same database and chains, nothing in memory. */
  route(overrides?: Partial<CctpRouteDeps>): ReturnType<typeof createCctpRoute>;
  /** With `swaps`: the USDT (Ethereum's kind: approve and transfer return nothing) and Uniswap V3. */
  swaps?: { usdt: Address; uniswap: UniswapV3; pool: Address };
  /** What the signer is given for the swap route (needs `swaps`): a fresh writer on the same relayer. */
  swapRouteDeps(overrides?: Partial<UsdtSwapRouteDeps>): UsdtSwapRouteDeps;
  treasuryUsdcBalance(): Promise<bigint>;
  collectorBalance(): Promise<bigint>;
  /** DepositForBurn events the messenger emitted so far, whoever burned. */
  burnsOnChain(): Promise<number>;
  stop(): Promise<void>;
}

export async function startCctpRoute(options: { confirmationMs?: number; swaps?: boolean } = {}): Promise<CctpRouteFixture> {
  const [db, evm, solana] = await Promise.all([
    createTestDatabase(),
    createLocalChain(),
    freePort().then((port) => startLocalSolana({ port, slotMs: SLOT_MS })),
  ]);
  const signerSql = createSql(db.urlAs('checkout_signer'), { max: 5 });
  const solanaRpc = createSolanaRpc(solana.rpcUrl);
  const treasury = await createKeyPairSignerFromBytes(getBase58Encoder().encode(solana.treasury.secretKeyBase58));
  const treasuryUsdc = await associatedUsdcAccount(treasury.address, solana.usdcMint);
  const usdc = await evm.deployToken({ symbol: 'USDC', decimals: 6 });
  const standIn = await deployCctpStandIn(evm, { burnToken: usdc, minFee: 1_000n });
  const params = {
    tokenMessenger: standIn.tokenMessenger,
    mintRecipient: solanaAddressBytes32(treasuryUsdc),
    owner: evm.account(OWNER).address,
    sweeper: evm.account(RELAYER).address,
  };
  const steps = await deployDepositCollector({ publicClient: evm.publicClient, walletClient: evm.walletClient }, params);
  const collector = steps.find((step) => step.contract === 'DepositCollector')!.address;
  const swaps = options.swaps ? await deploySwaps(evm, usdc, collector) : undefined;
  let clockOffset = 0;
  const attestationServer = await startAttestationServer({
    publicClient: evm.publicClient,
    messageTransmitter: standIn.messageTransmitter,
    sourceDomain: standIn.localDomain,
    confirmationMs: options.confirmationMs ?? 0,
    // 1 bps both ways, as the stand-in messenger's minFee of 1000 asks of every burn.
    fees: [
      { finalityThreshold: 1000, minimumFee: 1 },
      { finalityThreshold: 2000, minimumFee: 1 },
    ],
    destinationBlock: async () => solanaRpc.getSlot({ commitment: 'confirmed' }).send(),
    now: () => Date.now() + clockOffset,
  });
  const treasuryDeps: TreasuryPayoutDeps = {
    sql: signerSql,
    rpc: solanaRpc,
    treasury,
    usdcMint: solana.usdcMint,
    memo: false,
    verifyDepositBacking: () => Promise.reject(new Error('a transfer pays no merchant')),
    verifyAtSigning: () => Promise.reject(new Error('a transfer pays no merchant')),
    verifyDailyLimit: () => Promise.reject(new Error('a transfer pays no merchant')),
  };
  const writer = () =>
    createEvmChainWriter({
      sql: signerSql,
      client: evm.publicClient,
      account: evm.account(RELAYER),
      chain: 'ethereum',
      mode: 'test',
      chainId: evm.chainId,
      requiredConfirmations: 1,
      stuckAfterMs: 60_000,
      feeBumpPercent: 20,
      maxFeePerGasCap: 10n ** 12n,
    });
  const routeDeps = (overrides: Partial<CctpRouteDeps> = {}): CctpRouteDeps => ({
    mode: 'test',
    chain: 'ethereum',
    client: evm.publicClient,
    writer: writer(),
    usdc,
    collector,
    speed: 'standard',
    maxFeeBps: 20,
    minimum: 1_000_000n,
    confirmations: 1,
    attestation: createAttestationClient({ baseUrl: attestationServer.url, timeoutMs: 2_000 }),
    treasury: treasuryDeps,
    ...overrides,
  });
  const route = (overrides: Partial<CctpRouteDeps> = {}) => createCctpRoute(routeDeps(overrides));
  const swapRouteDeps = (overrides: Partial<UsdtSwapRouteDeps> = {}): UsdtSwapRouteDeps => {
    if (!swaps) throw new Error('startCctpRoute({ swaps: true }) deploys the swap contracts');
    return {
      sql: signerSql,
      mode: 'test',
      chain: 'ethereum',
      client: evm.publicClient,
      writer: writer(),
      collector,
      usdt: { address: swaps.usdt, decimals: 6 },
      usdc: { address: usdc, decimals: 6 },
      router: swaps.uniswap.swapRouter,
      quoter: swaps.uniswap.quoter,
      poolFee: SWAP_POOL_FEE,
      maxDeviationBps: 50,
      minimum: 1_000_000n,
      confirmations: 1,
      ...overrides,
    };
  };
  return {
    db,
    signerSql,
    evm,
    solana,
    solanaRpc,
    usdc,
    standIn,
    collector,
    attestationServer,
    advanceAttestationClock: (ms) => void (clockOffset += ms),
    writer,
    routeDeps,
    route,
    ...(swaps ? { swaps } : {}),
    swapRouteDeps,
    treasuryUsdcBalance: async () => BigInt((await solanaRpc.getTokenAccountBalance(treasuryUsdc).send()).value.amount),
    collectorBalance: () => evm.publicClient.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [collector] }),
    async burnsOnChain() {
      const logs = await evm.publicClient.getLogs({ address: standIn.tokenMessenger, fromBlock: 0n });
      return parseEventLogs({ abi: tokenMessengerV2Abi, eventName: 'DepositForBurn', logs }).length;
    },
    async stop() {
      await Promise.allSettled([attestationServer.stop(), solana.stop(), evm.stop(), signerSql.end({ timeout: 5 })]);
      await db.drop();
    },
  };
}

/** Uniswap V3, a USDT/USDC pool at 1:1 in the 0.01% tier, and the collector set by its owner to swap there. */
async function deploySwaps(evm: LocalChain, usdc: Address, collector: Address) {
  const usdt = await evm.deployToken({ symbol: 'USDT', decimals: 6, kind: 'noReturn' });
  const uniswap = await deployUniswapV3(evm);
  const pool = await seedPool(evm, uniswap, { tokenA: usdt, tokenB: usdc, fee: SWAP_POOL_FEE, wholeTokens: 10_000_000n });
  const owner = evm.walletClientFor(OWNER);
  for (const [functionName, args] of [
    ['setSwapRouter', [uniswap.swapRouter]],
    ['setSwapTokenOut', [usdc]],
    ['setMaxSwapDeviationBps', [50]],
  ] as const) {
    const hash = await owner.writeContract({ address: collector, abi: depositCollector.abi, functionName, args } as never);
    await evm.publicClient.waitForTransactionReceipt({ hash });
  }
  return { usdt, uniswap, pool };
}

/** The collector's Burned events: what the relayer's burns asked for. */
export async function collectorBurns(f: CctpRouteFixture): Promise<Hash[]> {
  const logs = await f.evm.publicClient.getLogs({ address: f.collector, fromBlock: 0n });
  return parseEventLogs({ abi: depositCollector.abi, eventName: 'Burned', logs }).map((log) => log.transactionHash);
}
