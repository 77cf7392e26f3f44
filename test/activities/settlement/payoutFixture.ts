// What the treasury payout tests share: a migrated database reached as the signer's and the worker's roles, the in-process Solana
// chain behind its JSON-RPC endpoint, a 6-decimal USDC mint, treasuries funded as each test needs, and payments
// (session + payment rows) of merchants whose settlement wallets have no USDC account yet.
import { randomBytes } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  generateKeyPairSigner,
  lamports,
  type Address,
  type KeyPairSigner,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from '@solana/kit';
import { createDepositBackingCheck, createSigningCheck, type DepositBackingDeps } from '../../../signer/backing/depositBacking';
import { createDailyLimitCheck } from '../../../signer/backing/dailyLimit';
import { provisionPayoutNonces } from '../../../signer/payouts/payoutNonces';
import { payoutNonceAddresses } from '../../../domain/settlement/payoutNonces';
import {
  createTreasuryPayout,
  type PayoutOutcome,
  type PayoutRequest,
  type TreasuryPayoutDeps,
} from '../../../signer/payouts/treasuryPayout';
import { loadChainsConfig } from '../../../config/chains';
import { NO_DEPOSIT_FORWARDERS, type DepositForwarders } from '../../../domain/addresses/depositForwarder';
import { depositSeed, type DepositSeeds } from '../../../domain/addresses/depositSeed';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { deriveDepositAddresses, type DepositAddresses } from '../../../domain/addresses/hdDerivation';
import { createSql, type Sql } from '../../../db/client';
import { findChainIntent, type ChainIntent } from '../../../db/repositories/chainIntents';
import { unbalancedLedgerGroups } from '../../../db/repositories/ledger';
import { setSettlementWallet } from '../../../db/repositories/merchants';
import { setDepositVerdict } from '../../../db/repositories/deposits';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { insertPendingSettlement } from '../../../db/repositories/settlements';
import { createChainRegistry, type ChainRegistry } from '../../../domain/chains/chainRegistry';
import { CHAIN_FACTS, type Chain } from '../../../domain/chains/chains';
import { DEFAULT_LIVE_ROUTES, parseLiveRoutes, TREASURY_PROVIDER } from '../../../domain/settlement/settlementRoute';
import { paymentIdForSession } from '../../../domain/wire/ids';
import type { Mode } from '../../../domain/wire/session';
import { markConfirmed, upsertDeposits } from '../../../indexers/core/depositStore';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { LocalSolanaChain } from '../../../toolchain/localSolana/localSolanaChain';
import { startSolanaRpcServer, type SolanaRpcServer } from '../../../toolchain/localSolana/solanaRpcServer';
import { associatedTokenAccount, createMint, mintTo, transfer, type TestMint } from '../../../toolchain/localSolana/splToken';

/** The TRC-20 the registry watches as USDT on Tron's testnet: the stand-in node (tronWalletNode.ts) moves it. */
export const TRON_TEST_USDT = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';

/** A deposits row as the indexer writes it: by default the payment's whole amount, confirmed at full depth. */
export interface IndexerDeposit {
  amount: bigint;
  confirmations?: number;
  /** A transaction on the local chain (onChainDeposit); by default a made-up one, never re-read below the threshold. */
  txHash?: string;
  logIndex?: number;
  chain?: Chain;
  /** Whether the session's workflow credited it to the payment (by default it did; a late deposit is not). */
  credited?: boolean;
}

export interface PayoutFixture {
  db: TestDatabase;
  /** The signer's least-privilege role: what the payout activities run as. */
  signer: Sql;
  /** The worker's: what the reconciliation runs as. */
  worker: Sql;
  chain: LocalSolanaChain;
  rpcServer: SolanaRpcServer;
  /** Another endpoint of the same chain: the second of mainnet's RPC URLs, which live payouts' deposits are re-read from. */
  rereadServer: SolanaRpcServer;
  rpc: Rpc<SolanaRpcApi>;
  usdc: TestMint;
  /** The chains as the signer is configured with them here (mainnet's RPC URLs: rpcServer's then rereadServer's). */
  registry: ChainRegistry;
  /** The deposit seeds the signer holds: test's the development mnemonic's, live's a fresh one. */
  depositSeeds: DepositSeeds;
  /**
   * A treasury from a 64-byte secret key, as the signer worker loads it, holding `usdc` base units and `sol` lamports,
   * re-reading deposits from the local chain (Tron's from `tronHttpApi`) for test payouts above `rereadAboveUsdcBaseUnits`
   * (default 1000 USDC) and every live one (mainnet is the local chain, at `mainnetRpcUrls`: by default rpcServer's then
   * rereadServer's), holding a merchant's live payouts past `dailyLimitUsdcBaseUnits` a day (default: no limit), its
   * payout nonce accounts ready unless `nonceAccounts` is false.
   */
  treasury(
    funds: { usdc: bigint; sol?: bigint },
    options?: {
      rereadAboveUsdcBaseUnits?: bigint;
      tronHttpApi?: DepositBackingDeps['tronHttpApi'];
      nonceAccounts?: boolean;
      mainnetRpcUrls?: string[];
      dailyLimitUsdcBaseUnits?: bigint;
      /** The forwarder contracts the signer is configured with (default: none, every address HD). */
      depositForwarders?: DepositForwarders;
    },
  ): Promise<TreasuryPayoutDeps>;
  topUp(treasury: KeyPairSigner, usdc: bigint): Promise<void>;
  /**
   * A confirmed payment of a merchant with a fresh settlement wallet, in USDC on solana to a fresh deposit address,
   * quoted at 1 USDC per USD for a session of `amount` (in whole cents), backed by the indexer's deposits rows, credited
   * by the workflow (`deposits`; default: one of the whole amount), its treasury settlement begun, and the request to pay
   * it out; in `mode` (default test), of `merchantOf`'s merchant and wallet when given. Its deposit addresses
   * (`addresses`) are the HD addresses the signer's seed of that mode derives at the session's index.
   */
  payment(
    amount: bigint,
    deposits?: (depositAddress: Address) => Promise<IndexerDeposit[]> | IndexerDeposit[],
    options?: { mode?: Mode; merchantOf?: { request: PayoutRequest; wallet: Address } },
  ): Promise<{ request: PayoutRequest; wallet: Address; depositAddress: Address; addresses: DepositAddresses }>;
  /** A real USDC transfer of `amount` to `owner` on the local chain, in a produced block: the deposit the indexer would see. */
  onChainDeposit(owner: Address, amount: bigint): Promise<{ txHash: string; logIndex: number }>;
  usdcBalance(owner: Address): Promise<bigint | undefined>;
  intentOf(paymentId: string): Promise<ChainIntent>;
  /** How many of the intent's signatures, current and superseded, are on the chain. */
  landedSignatures(intent: ChainIntent): number;
  /** Every ledger group, and the whole ledger, sums to zero per asset. */
  ledgerImbalances(): Promise<unknown[]>;
  /** The SOL postings of a payout's or refund's reference (payout:<pay_…>, refund:<ref_…>): what its transaction cost. */
  solEntries(reference: string): Promise<Array<{ account: string; amount: string }>>;
  /** Calls the payout, producing a block after each submitted pass, until it is confirmed. */
  payUntilConfirmed(deps: TreasuryPayoutDeps, request: PayoutRequest): Promise<PayoutOutcome>;
  stop(): Promise<void>;
}

/**
 * The fixture of one test file: made once before its tests (handed to `use`), stopped after them, and the ledger
 * checked balanced after every test, once `afterEachTest` has put back what the test changed.
 */
export function usePayoutFixture(use: (fixture: PayoutFixture) => void, afterEachTest: () => void = () => undefined): void {
  let fixture: PayoutFixture | undefined;
  beforeAll(async () => {
    fixture = await createPayoutFixture();
    use(fixture);
  });
  afterAll(async () => {
    await fixture?.stop();
  });
  afterEach(async () => {
    afterEachTest();
    expect(await fixture!.ledgerImbalances()).toEqual([]);
  });
}

export async function createPayoutFixture(): Promise<PayoutFixture> {
  const db = await createTestDatabase();
  // The development mnemonic's, as the test signer holds it without DEPOSIT_MNEMONIC_TEST.
  const testSeed = depositSeed({ mode: 'test' });
  const liveSeed = depositSeed({ mode: 'live', mnemonic: generateMnemonic(wordlist) });
  const signerSql = createSql(db.urlAs('checkout_signer'), { max: 4 });
  const worker = createSql(db.urlAs('checkout_worker'), { max: 4 });
  const chain = new LocalSolanaChain();
  const [rpcServer, rereadServer] = await Promise.all([startSolanaRpcServer(chain), startSolanaRpcServer(chain)]);
  const rpc = createSolanaRpc(rpcServer.url);
  const usdc = await createMint(chain, 6);
  chain.produce();
  const registryWith = (mainnetRpcUrls: string[]) =>
    createChainRegistry(
      loadChainsConfig({
        RPC_URLS_SOLANA_TESTNET: rpcServer.url,
        TOKEN_USDC_SOLANA_TESTNET: `${usdc.address}:6`,
        TOKEN_USDT_TRON_TESTNET: `${TRON_TEST_USDT}:6`,
        RPC_URLS_SOLANA_MAINNET: mainnetRpcUrls.join(','),
        TOKEN_USDC_SOLANA_MAINNET: `${usdc.address}:6`,
        ALLOW_MAINNET_TOKEN_OVERRIDES: 'true',
      }),
    );
  const registry = registryWith([rpcServer.url, rereadServer.url]);

  const topUp = async (treasury: KeyPairSigner, amount: bigint) => {
    await mintTo(chain, usdc, treasury.address, amount);
    chain.produce();
  };

  /**
   * The treasury's payout nonce accounts, created by the signer as a payout's first pass would (or, for a treasury
   * without SOL to pay their rent, found on chain as an operator's), their nonces final before the test pays.
   */
  const provisionNonces = async (deps: TreasuryPayoutDeps, installed: boolean) => {
    if (installed)
      chain.installNonceAccounts(
        (await payoutNonceAddresses(deps.treasury.address)).map((p) => p.address),
        deps.treasury.address,
      );
    for (let pass = 0; pass < 5; pass++) {
      await provisionPayoutNonces(deps, 'test');
      chain.produce();
      const [pool] = await db.sql<
        { n: number }[]
      >`select count(*)::int as n from solana_nonce_accounts where treasury = ${deps.treasury.address}`;
      if ((pool?.n ?? 0) > 0) return;
    }
    throw new Error(`the nonce accounts of treasury ${deps.treasury.address} were not created`);
  };

  const usdcBalance = async (owner: Address) => {
    const account = await associatedTokenAccount(owner, usdc.address);
    if (!(await rpc.getAccountInfo(account, { encoding: 'base64' }).send()).value) return undefined;
    return BigInt((await rpc.getTokenAccountBalance(account).send()).value.amount);
  };

  return {
    db,
    signer: signerSql,
    worker,
    chain,
    rpcServer,
    rereadServer,
    rpc,
    usdc,
    registry,
    depositSeeds: { test: testSeed, live: liveSeed },
    async treasury(funds, options = {}) {
      const seed = randomBytes(32);
      const signer = await createKeyPairSignerFromBytes(new Uint8Array([...seed, ...ed25519.getPublicKey(seed)]));
      if (funds.sol !== 0n) chain.svm.airdrop(signer.address, lamports(funds.sol ?? 1_000_000_000n));
      if (funds.usdc > 0n) await topUp(signer, funds.usdc);
      chain.produce();
      // litesvm cannot execute the Memo program (TreasuryPayoutDeps.memo); payoutTransaction.test.ts covers the memo.
      const backing = {
        sql: signerSql,
        registry: options.mainnetRpcUrls ? registryWith(options.mainnetRpcUrls) : registry,
        rereadAboveUsdcBaseUnits: options.rereadAboveUsdcBaseUnits ?? 1_000_000_000n,
        ...(options.tronHttpApi ? { tronHttpApi: options.tronHttpApi } : {}),
        liveRoutes: parseLiveRoutes(DEFAULT_LIVE_ROUTES),
        depositSeeds: { test: testSeed, live: liveSeed },
        depositForwarders: options.depositForwarders ?? NO_DEPOSIT_FORWARDERS,
      };
      const deps = {
        sql: signerSql,
        rpc,
        treasury: signer,
        usdcMint: usdc.address,
        memo: false,
        verifyDepositBacking: createDepositBackingCheck(backing),
        verifyAtSigning: createSigningCheck(backing),
        verifyDailyLimit: createDailyLimitCheck({ limitUsdcBaseUnits: options.dailyLimitUsdcBaseUnits }),
      };
      if (options.nonceAccounts !== false) await provisionNonces(deps, funds.sol === 0n);
      return deps;
    },
    topUp,
    async payment(amount, deposits = () => [{ amount }], options = {}) {
      const mode = options.mode ?? 'test';
      const network = mode === 'live' ? 'mainnet' : 'testnet';
      // A merchant per payment, each with a fresh wallet, unless asked: every test reads balances nobody else touches.
      const merchantId = options.merchantOf?.request.merchantId ?? (await createTestMerchant(db.sql)).merchant.id;
      const wallet = options.merchantOf?.wallet ?? (await generateKeyPairSigner()).address;
      if (!options.merchantOf) await setSettlementWallet(db.sql, merchantId, wallet);
      const cents = amount / 10_000n;
      const record = {
        ...sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 }),
        mode,
        amountUsdCents: (cents > 0n ? cents : 1n).toString(),
      };
      await insertSessionRecord(db.sql, record, 'confirming');
      const paymentId = paymentIdForSession(record.sessionId);
      const sequence = mode === 'live' ? 'deposit_address_index_seq' : 'deposit_address_test_index_seq';
      const [{ index }] = await db.sql<[{ index: number }]>`select nextval(${sequence})::int as index`;
      const addresses = deriveDepositAddresses(mode === 'live' ? liveSeed : testSeed, index);
      const depositAddress = addresses.solana as Address;
      await db.sql`
        insert into deposit_addresses (session_id, mode, derivation_index, evm_address, tron_address, solana_address)
        values (${record.sessionId}, ${mode}, ${index}, ${addresses.evm}, ${addresses.tron}, ${depositAddress})`;
      await db.sql`
        insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
        values (${paymentId}, ${record.sessionId}, 'USDC', 'solana', ${depositAddress}, ${amount.toString()}, ${amount.toString()}, 6)`;
      for (const d of await deposits(depositAddress)) {
        const ref = { chain: d.chain ?? 'solana', txHash: d.txHash ?? randomBytes(32).toString('hex'), logIndex: d.logIndex ?? 1 };
        const blockHash = randomBytes(32).toString('hex');
        await upsertDeposits(db.sql, { chain: ref.chain, network }, [
          {
            ...ref,
            sessionId: record.sessionId,
            token: 'USDC',
            amount: d.amount,
            fromAddress: 'customer',
            toAddress: depositAddress,
            blockNumber: 1n,
            blockHash,
          },
        ]);
        await markConfirmed(db.sql, ref, blockHash, d.confirmations ?? CHAIN_FACTS[ref.chain].confirmations);
        if (d.credited ?? true) await setDepositVerdict(worker, record.sessionId, network, ref, { credited: true, late: false });
      }
      await insertPendingSettlement(worker, {
        paymentId,
        sessionId: record.sessionId,
        provider: TREASURY_PROVIDER,
        amountUsdcBaseUnits: amount.toString(),
      });
      return {
        request: { paymentId, merchantId, mode, amountUsdcBaseUnits: amount.toString() },
        wallet,
        depositAddress,
        addresses,
      };
    },
    async onChainDeposit(owner, amount) {
      const customer = await generateKeyPairSigner();
      chain.svm.airdrop(customer.address, lamports(1_000_000_000n));
      await mintTo(chain, usdc, customer.address, amount);
      const sent = await transfer(chain, usdc, customer, [{ to: owner, amount }]);
      chain.produce();
      const landed = await rpc
        .getTransaction(sent.signature as Signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 })
        .send();
      const credited = landed?.meta?.postTokenBalances?.find((b) => b.owner === owner);
      if (!credited) throw new Error(`transfer ${sent.signature} credited nothing to ${owner}`);
      return { txHash: sent.signature, logIndex: credited.accountIndex };
    },
    usdcBalance,
    intentOf: async (paymentId) => (await findChainIntent(db.sql, `payout:${paymentId}`)) as ChainIntent,
    landedSignatures: (intent) =>
      [intent.signature, ...intent.supersededSignatures].filter((s) => s !== null && chain.findTransaction(s)).length,
    solEntries: (reference) =>
      db.sql<
        Array<{ account: string; amount: string }>
      >`select account, amount::text from ledger_entries where reference = ${reference} and asset = 'sol:solana' order by id`,
    async ledgerImbalances() {
      const totals = await db.sql`select asset, sum(amount)::text as total from ledger_entries group by asset having sum(amount) <> 0`;
      return [...(await unbalancedLedgerGroups(db.sql)), ...totals];
    },
    async payUntilConfirmed(deps, request) {
      const pay = createTreasuryPayout(deps);
      // In an activity context first scheduled now, as the signer worker runs a payout's first pass.
      const activity = new MockActivityEnvironment({ scheduledTimestampMs: Date.now() });
      for (let pass = 0; pass < 10; pass++) {
        const outcome = await activity.run<[PayoutRequest], PayoutOutcome, typeof pay>(pay, request);
        if (outcome.status === 'confirmed' || outcome.status === 'finalized') return outcome;
        if (outcome.status !== 'submitted') throw new Error(`payout ${request.paymentId} is ${outcome.status}`);
        chain.produce();
      }
      throw new Error(`payout ${request.paymentId} not confirmed after 10 blocks`);
    },
    async stop() {
      await Promise.all([rpcServer?.close(), rereadServer?.close()]);
      await Promise.all([signerSql?.end({ timeout: 5 }), worker?.end({ timeout: 5 })]);
      await db?.drop();
    },
  };
}
