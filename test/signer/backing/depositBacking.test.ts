// The signer pays only on the indexer's facts. Before the payout row exists it reads the deposits
// rows only the indexer writes, and above SETTLEMENT_RPC_RECHECK_ABOVE_USDC it re-reads each deposit from the
// local Solana chain's JSON-RPC endpoint (Tron's from the stand-in HTTP API); anything less refuses the payout: no
// row, no ledger entry, no transfer. A node that trails the indexer's is waited on (retryably) for a bounded time.
import { randomBytes } from 'node:crypto';
import { getBase58Decoder, type Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { createTreasuryPayout, type PayoutRequest, type TreasuryPayoutDeps } from '../../../signer/payouts/treasuryPayout';
import { tronAddressFromEvmHex } from '../../../domain/addresses/tron';
import { WorkflowFailure } from '../../../domain/session/workflowFailures';
import { REREAD_WAIT_MS } from '../../../domain/settlement/depositBacking';
import { setDepositVerdict } from '../../../db/repositories/deposits';
import type { DepositRef } from '../../../domain/session/deposit';
import { markConfirmed, upsertDeposits } from '../../../indexers/core/depositStore';
import { recordingActivity } from '../../support/recordingActivity';
import { startTronWalletNode } from '../../support/tron/tronWalletNode';
import { TRON_TEST_USDT, usePayoutFixture, type PayoutFixture } from '../../activities/settlement/payoutFixture';

let f: PayoutFixture;
/** The signer's logger and metrics exporter, as the activity reaches them. */
const { environment: activity, errors, counted, clear } = recordingActivity();

usePayoutFixture((fixture) => (f = fixture), clear);

/** One payout pass, as the signer worker runs it: in an activity context, which its refusal logs and counts in. */
const payOnce = (deps: TreasuryPayoutDeps, request: PayoutRequest) => activity.run(createTreasuryPayout(deps), request);

/** Nothing of the payout exists: no row, no chain intent, no ledger entry. */
async function nothingWritten(paymentId: string) {
  const [row] = await f.db.sql`
    select (select count(*)::int from payouts where payment_id = ${paymentId}) as payouts,
           (select count(*)::int from chain_intents where id = ${`payout:${paymentId}`}) as intents,
           (select count(*)::int from ledger_entries where reference = ${`payout:${paymentId}`}) as entries`;
  return row;
}

/** One pass of a payout whose activity's first attempt was scheduled at `at` (ms since the epoch). */
const payFirstAskedAt = (at: number, deps: TreasuryPayoutDeps, request: PayoutRequest) =>
  recordingActivity({ scheduledTimestampMs: at }).environment.run(createTreasuryPayout(deps), request);

/** A retryable failure the payout activity's retry policy waits on. */
const waiting = (message: RegExp) => ({
  type: WorkflowFailure.DepositRereadPending,
  nonRetryable: false,
  message: expect.stringMatching(message),
});

const refusal = (message: string | RegExp) => ({
  type: WorkflowFailure.PayoutRefused,
  nonRetryable: true,
  message: expect.stringMatching(message),
});

/** The workflow's verdict on a deposit the test wrote as the indexer: credited to the payment. */
const creditDeposit = (sessionId: string, ref: DepositRef) =>
  setDepositVerdict(f.worker, sessionId, 'testnet', ref, { credited: true, late: false });

describe('the payout checks the indexer facts itself', () => {
  it('a payment no indexer record backs (a forged confirmation) pays nothing, and the treasury keeps its USDC', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request, wallet } = await f.payment(5_000_000n, () => []);
    await expect(payOnce(deps, request)).rejects.toMatchObject(
      refusal(/add up to 0 USDC base units, less than the payout of 5000000; not paid$/),
    );
    expect(await nothingWritten(request.paymentId)).toEqual({ payouts: 0, intents: 0, entries: 0 });
    expect(await f.usdcBalance(deps.treasury.address)).toBe(50_000_000n);
    expect(await f.usdcBalance(wallet)).toBeUndefined();
    expect(counted).toEqual([
      { name: 'checkout_payouts_refused_unbacked', value: 1, tags: expect.objectContaining({ chain: 'solana', source: 'indexer' }) },
    ]);
    expect(errors).toEqual([
      {
        message: 'payout refused: not backed by confirmed deposits',
        meta: expect.objectContaining({ paymentId: request.paymentId, source: 'indexer' }),
      },
    ]);
  });

  it('a deposit short of the required depth is refused; once the indexer records it deep enough, it pays', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request, wallet } = await f.payment(4_000_000n, () => [{ amount: 4_000_000n, confirmations: 31 }]);
    await expect(payOnce(deps, request)).rejects.toMatchObject(refusal(/\(1 more not yet 32 confirmations deep\)/));
    expect(await nothingWritten(request.paymentId)).toEqual({ payouts: 0, intents: 0, entries: 0 });

    await f.db
      .sql`update deposits set confirmations = 32 where session_id = (select session_id from payments where id = ${request.paymentId})`;
    await f.payUntilConfirmed(deps, request);
    expect(await f.usdcBalance(wallet)).toBe(4_000_000n);
  });

  it('deposits that add up to less than the payout are refused', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request } = await f.payment(6_000_000n, () => [{ amount: 2_000_000n }, { amount: 3_999_999n }]);
    await expect(payOnce(deps, request)).rejects.toMatchObject(
      refusal(/add up to 5999999 USDC base units, less than the payout of 6000000/),
    );
    expect(await nothingWritten(request.paymentId)).toEqual({ payouts: 0, intents: 0, entries: 0 });
  });
});

describe('above the threshold the payout re-reads each deposit from the chain', () => {
  const threshold = { rereadAboveUsdcBaseUnits: 1_000_000n };
  /** `sent` really arrives on chain, 32 slots deep; the indexer's row says `recorded`. */
  const deposited = (sent: bigint, recorded: bigint) => async (depositAddress: Address) => {
    const onChain = await f.onChainDeposit(depositAddress, sent);
    f.chain.produce(31);
    return [{ amount: recorded, ...onChain }];
  };

  it('pays a deposit the chain shows as the indexer recorded it', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n }, threshold);
    const { request, wallet } = await f.payment(5_000_000n, deposited(5_000_000n, 5_000_000n));
    f.rpcServer.resetCalls();
    await f.payUntilConfirmed(deps, request);
    expect(f.rpcServer.calls.get('getTransaction')).toBeGreaterThan(0);
    expect(await f.usdcBalance(wallet)).toBe(5_000_000n);
  });

  it('refuses an indexer row whose amount the chain does not show', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n }, threshold);
    const { request, wallet } = await f.payment(5_000_000n, deposited(4_000_000n, 5_000_000n));
    await expect(payOnce(deps, request)).rejects.toMatchObject(
      refusal(/: the node shows 4000000 base units credited, the indexer recorded 5000000; not paid$/),
    );
    expect(await nothingWritten(request.paymentId)).toEqual({ payouts: 0, intents: 0, entries: 0 });
    expect(await f.usdcBalance(deps.treasury.address)).toBe(50_000_000n);
    expect(await f.usdcBalance(wallet)).toBeUndefined();
    expect(counted).toEqual([
      { name: 'checkout_payouts_refused_unbacked', value: 1, tags: expect.objectContaining({ chain: 'solana', source: 'chain' }) },
    ]);
  });

  it('refuses at once a row naming a transaction that paid someone else, however recently the payout was first asked', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n }, threshold);
    const elsewhere = await f.payment(3_000_000n, async () => [
      { amount: 3_000_000n, ...(await f.onChainDeposit((await f.payment(1n)).wallet, 3_000_000n)) },
    ]);
    f.chain.produce(31);
    await expect(payFirstAskedAt(Date.now(), deps, elsewhere.request)).rejects.toMatchObject(
      refusal(/the node shows no USDC credit to the deposit address, though the indexer recorded 3000000/),
    );
    expect(await nothingWritten(elsewhere.request.paymentId)).toEqual({ payouts: 0, intents: 0, entries: 0 });
  });

  it('waits (retryably) while the node has not buried the deposit deep enough, refuses past the bound, and pays once it has', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n }, threshold);
    const shallow = await f.payment(3_000_000n, async (depositAddress) => [
      { amount: 3_000_000n, ...(await f.onChainDeposit(depositAddress, 3_000_000n)) },
    ]);
    await expect(payFirstAskedAt(Date.now(), deps, shallow.request)).rejects.toMatchObject(
      waiting(/the node shows 1 confirmations, fewer than the 32 required; waiting$/),
    );
    await expect(payFirstAskedAt(Date.now() - REREAD_WAIT_MS, deps, shallow.request)).rejects.toMatchObject(
      refusal(/the node shows 1 confirmations, fewer than the 32 required, still after 30 minutes of waiting; not paid$/),
    );
    expect(await nothingWritten(shallow.request.paymentId)).toEqual({ payouts: 0, intents: 0, entries: 0 });

    f.chain.produce(31);
    await f.payUntilConfirmed(deps, shallow.request);
    expect(await f.usdcBalance(shallow.wallet)).toBe(3_000_000n);
  });

  it('waits (retryably) for a transaction the node has no record of, until the bound', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n }, threshold);
    const unseen = await f.payment(3_000_000n, () => [{ amount: 3_000_000n, txHash: getBase58Decoder().decode(randomBytes(64)) }]);
    await expect(payFirstAskedAt(Date.now(), deps, unseen.request)).rejects.toMatchObject(
      waiting(/the node has no record of the transaction, though the indexer recorded 3000000; waiting$/),
    );
    await expect(payFirstAskedAt(Date.now() - REREAD_WAIT_MS, deps, unseen.request)).rejects.toMatchObject(
      refusal(/the node has no record of the transaction, though the indexer recorded 3000000, still after 30 minutes of waiting/),
    );
    expect(await nothingWritten(unseen.request.paymentId)).toEqual({ payouts: 0, intents: 0, entries: 0 });
  });

  it("re-reads a Tron deposit from the HTTP API's solidified view: waits until it is deep enough, then pays", async () => {
    const node = await startTronWalletNode();
    try {
      const tronHttpApi = { testnet: { fullNodeUrl: node.url, solidityUrl: node.url } };
      const deps = await f.treasury({ usdc: 50_000_000n }, { ...threshold, tronHttpApi });
      const { request, wallet, addresses } = await f.payment(2_000_000n, () => []);
      const depositAddress = addresses.tron;
      const txHash = node.deposit(
        TRON_TEST_USDT,
        tronAddressFromEvmHex(`0x${randomBytes(20).toString('hex')}`),
        depositAddress,
        2_000_000n,
      );
      const [payment] = await f.db.sql<[{ sessionId: string }]>`
        update payments set chain = 'tron', token = 'USDT' where id = ${request.paymentId} returning session_id as "sessionId"`;
      const ref = { chain: 'tron' as const, txHash, logIndex: 0 };
      const blockHash = randomBytes(32).toString('hex');
      await upsertDeposits(f.db.sql, { chain: 'tron', network: 'testnet' }, [
        {
          ...ref,
          sessionId: payment.sessionId,
          token: 'USDT',
          amount: 2_000_000n,
          fromAddress: 'customer',
          toAddress: depositAddress,
          blockNumber: node.head(),
          blockHash,
        },
      ]);
      await markConfirmed(f.db.sql, ref, blockHash, 19);
      await creditDeposit(payment.sessionId, ref);

      await expect(payFirstAskedAt(Date.now(), deps, request)).rejects.toMatchObject(waiting(/the node has no record of the transaction/));
      node.mineEmpty(2);
      await expect(payFirstAskedAt(Date.now(), deps, request)).rejects.toMatchObject(
        waiting(/the node shows 1 confirmations, fewer than the 19 required; waiting$/),
      );
      expect(await nothingWritten(request.paymentId)).toEqual({ payouts: 0, intents: 0, entries: 0 });
      node.mineEmpty(18);
      await f.payUntilConfirmed(deps, request);
      expect(await f.usdcBalance(wallet)).toBe(2_000_000n);
      expect(node.calls.get('/walletsolidity/gettransactioninfobyid')).toBe(3);
    } finally {
      await node.close();
    }
  });

  it('refuses at once a Tron deposit whose transaction failed', async () => {
    const node = await startTronWalletNode();
    try {
      const tronHttpApi = { testnet: { fullNodeUrl: node.url, solidityUrl: node.url } };
      const deps = await f.treasury({ usdc: 50_000_000n }, { ...threshold, tronHttpApi });
      const { request, addresses } = await f.payment(2_000_000n, () => []);
      const depositAddress = addresses.tron;
      const txHash = node.deposit(TRON_TEST_USDT, depositAddress, depositAddress, 2_000_000n, 'REVERT');
      node.mineEmpty(20);
      const [payment] = await f.db.sql<[{ sessionId: string }]>`
        update payments set chain = 'tron', token = 'USDT' where id = ${request.paymentId} returning session_id as "sessionId"`;
      const ref = { chain: 'tron' as const, txHash, logIndex: 0 };
      await upsertDeposits(f.db.sql, { chain: 'tron', network: 'testnet' }, [
        {
          ...ref,
          sessionId: payment.sessionId,
          token: 'USDT',
          amount: 2_000_000n,
          fromAddress: 'customer',
          toAddress: depositAddress,
          blockNumber: 1n,
          blockHash: 'ab',
        },
      ]);
      await markConfirmed(f.db.sql, ref, 'ab', 19);
      await creditDeposit(payment.sessionId, ref);
      await expect(payFirstAskedAt(Date.now(), deps, request)).rejects.toMatchObject(
        refusal(/the node shows the transaction failed, though the indexer recorded 2000000; not paid$/),
      );
    } finally {
      await node.close();
    }
  });

  it('refuses a payment on a chain the signer cannot re-read (here: base, without an RPC endpoint)', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n }, threshold);
    const { request } = await f.payment(2_000_000n, () => []);
    const [payment] = await f.db.sql<[{ sessionId: string; evm: string }]>`
      update payments p set chain = 'base' from deposit_addresses a where p.id = ${request.paymentId} and a.session_id = p.session_id
      returning p.session_id as "sessionId", a.evm_address as evm`;
    const ref = { chain: 'base' as const, txHash: `0x${'ab'.repeat(32)}`, logIndex: 0 };
    await upsertDeposits(f.db.sql, { chain: 'base', network: 'testnet' }, [
      {
        ...ref,
        sessionId: payment.sessionId,
        token: 'USDC',
        amount: 2_000_000n,
        fromAddress: '0x01',
        toAddress: payment.evm,
        blockNumber: 1n,
        blockHash: '0xcd',
      },
    ]);
    await markConfirmed(f.db.sql, ref, '0xcd', 64);
    await creditDeposit(payment.sessionId, ref);
    await expect(payOnce(deps, request)).rejects.toMatchObject(
      refusal(
        /is re-read from the chain, and the signer cannot re-read base testnet deposits \(RPC_URLS_BASE_TESTNET is not set\); not paid$/,
      ),
    );
    expect(await nothingWritten(request.paymentId)).toEqual({ payouts: 0, intents: 0, entries: 0 });
  });
});

describe("every live payout re-reads its deposits from a provider other than the indexer's", () => {
  /** A deposit that really arrived on chain, 32 slots deep, as the indexer recorded it. */
  const landed = (amount: bigint) => async (depositAddress: Address) => {
    const onChain = await f.onChainDeposit(depositAddress, amount);
    f.chain.produce(31);
    return [{ amount, ...onChain }];
  };
  const check = (deps: TreasuryPayoutDeps, request: PayoutRequest) =>
    activity.run(deps.verifyDepositBacking, request, BigInt(request.amountUsdcBaseUnits));

  it("re-reads a live payout far below the threshold from mainnet's second URL, not the indexer's first, and pays it", async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request, wallet } = await f.payment(2_000_000n, landed(2_000_000n), { mode: 'live' });
    f.rpcServer.resetCalls();
    f.rereadServer.resetCalls();
    await check(deps, request);
    expect(f.rereadServer.calls.get('getTransaction')).toBe(1);
    expect(f.rpcServer.calls.get('getTransaction')).toBeUndefined();
    await f.payUntilConfirmed(deps, request);
    expect(await f.usdcBalance(wallet)).toBe(2_000_000n);
  });

  it('waits on a live deposit the second provider has no record of, whatever its size; a test one that size is not re-read', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const live = await f.payment(1_000_000n, () => [{ amount: 1_000_000n }], { mode: 'live' });
    await expect(payFirstAskedAt(Date.now(), deps, live.request)).rejects.toMatchObject(
      waiting(/the node has no record of the transaction, though the indexer recorded 1000000; waiting$/),
    );
    expect(await nothingWritten(live.request.paymentId)).toEqual({ payouts: 0, intents: 0, entries: 0 });
    const test = await f.payment(1_000_000n);
    await f.payUntilConfirmed(deps, test.request);
    expect(await f.usdcBalance(test.wallet)).toBe(1_000_000n);
  });

  it("refuses a live payout when mainnet's RPC URLs name no provider besides the indexer's", async () => {
    for (const mainnetRpcUrls of [[f.rpcServer.url], [f.rpcServer.url, `${f.rpcServer.url}/`]]) {
      const deps = await f.treasury({ usdc: 50_000_000n }, { mainnetRpcUrls, nonceAccounts: false });
      const { request } = await f.payment(2_000_000n, landed(2_000_000n), { mode: 'live' });
      await expect(payOnce(deps, request)).rejects.toMatchObject(
        refusal(
          /a live payout is re-read from a provider other than the indexer's, and the signer cannot re-read solana mainnet deposits \(RPC_URLS_SOLANA_MAINNET has no URL besides the indexer's first\); not paid$/,
        ),
      );
      expect(await nothingWritten(request.paymentId)).toEqual({ payouts: 0, intents: 0, entries: 0 });
    }
    clear();
  });
});
