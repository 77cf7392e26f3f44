// What the treasury payout tests share: a migrated database reached as the worker's role, the in-process Solana
// chain behind its JSON-RPC endpoint, a 6-decimal USDC mint, treasuries funded as each test needs, and payments
// (session + payment rows) of merchants whose settlement wallets have no USDC account yet.
import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { createKeyPairSignerFromBytes, createSolanaRpc, generateKeyPairSigner, lamports, type Address, type KeyPairSigner, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { createTreasuryPayout, type PayoutOutcome, type PayoutRequest, type TreasuryPayoutDeps } from '../../../activities/settlement/treasuryPayout';
import { createSql, type Sql } from '../../../db/client';
import { findChainIntent, type ChainIntent } from '../../../db/repositories/chainIntents';
import { unbalancedLedgerGroups } from '../../../db/repositories/ledger';
import { setSettlementWallet } from '../../../db/repositories/merchants';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { paymentIdForSession } from '../../../domain/ids';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { LocalSolanaChain } from '../../../toolchain/localSolana/localSolanaChain';
import { startSolanaRpcServer, type SolanaRpcServer } from '../../../toolchain/localSolana/solanaRpcServer';
import { associatedTokenAccount, createMint, mintTo, type TestMint } from '../../../toolchain/localSolana/splToken';

export interface PayoutFixture {
  db: TestDatabase;
  /** The worker's least-privilege role: what the payout activities run as. */
  worker: Sql;
  chain: LocalSolanaChain;
  rpcServer: SolanaRpcServer;
  rpc: Rpc<SolanaRpcApi>;
  usdc: TestMint;
  /** A treasury from a 64-byte secret key, as the signer worker loads it, holding `usdc` base units and `sol` lamports. */
  treasury(funds: { usdc: bigint; sol?: bigint }): Promise<TreasuryPayoutDeps>;
  topUp(treasury: KeyPairSigner, usdc: bigint): Promise<void>;
  /** A confirmed payment of a merchant with a fresh settlement wallet, and the request to pay it out. */
  payment(amount: bigint): Promise<{ request: PayoutRequest; wallet: Address }>;
  usdcBalance(owner: Address): Promise<bigint | undefined>;
  intentOf(paymentId: string): Promise<ChainIntent>;
  /** How many of the intent's signatures, current and superseded, are on the chain. */
  landedSignatures(intent: ChainIntent): number;
  /** Every ledger group, and the whole ledger, sums to zero per asset. */
  ledgerImbalances(): Promise<unknown[]>;
  /** Calls the payout, producing a block after each submitted pass, until it is confirmed. */
  payUntilConfirmed(deps: TreasuryPayoutDeps, request: PayoutRequest): Promise<PayoutOutcome>;
  stop(): Promise<void>;
}

export async function createPayoutFixture(): Promise<PayoutFixture> {
  const db = await createTestDatabase();
  const worker = createSql(db.urlAs('checkout_worker'), { max: 4 });
  const chain = new LocalSolanaChain();
  const rpcServer = await startSolanaRpcServer(chain);
  const rpc = createSolanaRpc(rpcServer.url);
  const usdc = await createMint(chain, 6);
  chain.produce();

  const topUp = async (treasury: KeyPairSigner, amount: bigint) => {
    await mintTo(chain, usdc, treasury.address, amount);
    chain.produce();
  };

  const usdcBalance = async (owner: Address) => {
    const account = await associatedTokenAccount(owner, usdc.address);
    if (!(await rpc.getAccountInfo(account, { encoding: 'base64' }).send()).value) return undefined;
    return BigInt((await rpc.getTokenAccountBalance(account).send()).value.amount);
  };

  return {
    db,
    worker,
    chain,
    rpcServer,
    rpc,
    usdc,
    async treasury(funds) {
      const seed = randomBytes(32);
      const signer = await createKeyPairSignerFromBytes(new Uint8Array([...seed, ...ed25519.getPublicKey(seed)]));
      if (funds.sol !== 0n) chain.svm.airdrop(signer.address, lamports(funds.sol ?? 1_000_000_000n));
      if (funds.usdc > 0n) await topUp(signer, funds.usdc);
      chain.produce();
      // litesvm cannot execute the Memo program (TreasuryPayoutDeps.memo); payoutTransaction.test.ts covers the memo.
      return { sql: worker, rpc, treasury: signer, usdcMint: usdc.address, memo: false };
    },
    topUp,
    async payment(amount) {
      // A merchant per payment, each with a fresh wallet: every test reads balances nobody else touches.
      const { merchant } = await createTestMerchant(db.sql);
      const wallet = (await generateKeyPairSigner()).address;
      await setSettlementWallet(db.sql, merchant.id, wallet);
      const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
      await insertSessionRecord(db.sql, record, 'confirming');
      const paymentId = paymentIdForSession(record.sessionId);
      await db.sql`
        insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
        values (${paymentId}, ${record.sessionId}, 'USDC', 'solana', ${wallet}, ${amount.toString()}, ${amount.toString()}, 6)`;
      return { request: { paymentId, merchantId: merchant.id, mode: 'test', amountUsdcBaseUnits: amount.toString() }, wallet };
    },
    usdcBalance,
    intentOf: async (paymentId) => (await findChainIntent(db.sql, `payout:${paymentId}`)) as ChainIntent,
    landedSignatures: (intent) => [intent.signature, ...intent.supersededSignatures].filter((s) => s !== null && chain.findTransaction(s)).length,
    async ledgerImbalances() {
      const totals = await db.sql`select asset, sum(amount)::text as total from ledger_entries group by asset having sum(amount) <> 0`;
      return [...(await unbalancedLedgerGroups(db.sql)), ...totals];
    },
    async payUntilConfirmed(deps, request) {
      const pay = createTreasuryPayout(deps);
      for (let pass = 0; pass < 10; pass++) {
        const outcome = await pay(request);
        if (outcome.status === 'confirmed' || outcome.status === 'finalized') return outcome;
        if (outcome.status !== 'submitted') throw new Error(`payout ${request.paymentId} is ${outcome.status}`);
        chain.produce();
      }
      throw new Error(`payout ${request.paymentId} not confirmed after 10 blocks`);
    },
    async stop() {
      await rpcServer?.close();
      await worker?.end({ timeout: 5 });
      await db?.drop();
    },
  };
}
