// A merchant is paid from the Solana USDC treasury exactly once, through a write-ahead chain intent, on
// real SPL programs (litesvm) behind the JSON-RPC layer and a real Postgres reached as the worker's role: the exact
// amount, into an account created when missing, booked in a balanced ledger; a treasury short
// of USDC or SOL signs nothing and waits, and pays once topped up.
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import {
  decompileTransactionMessage,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  createSolanaRpc,
  lamports,
  type Base64EncodedWireTransaction,
  type Instruction,
} from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { createTreasuryPayout } from '../../../signer/payouts/treasuryPayout';
import { findPayout } from '../../../db/repositories/payouts';
import { ACCOUNT } from '../../../domain/ledger/ledger';
import { PAYOUT_NONCE_ACCOUNTS } from '../../../domain/settlement/payoutNonces';
import { WorkflowFailure } from '../../../domain/session/workflowFailures';
import { FINALITY_DEPTH } from '../../../toolchain/localSolana/localSolanaChain';
import { mintTo } from '../../../toolchain/localSolana/splToken';
import { startRpcProxy } from '../../support/evm/rpcProxy';
import { usePayoutFixture, type PayoutFixture } from '../../activities/settlement/payoutFixture';

const TOKEN_ACCOUNT_RENT = 2_039_280n;
const FEE = 5_000n;

let f: PayoutFixture;

usePayoutFixture((fixture) => (f = fixture));

describe('treasury payout', () => {
  it('pays the exact amount into a newly created merchant USDC account and books it', async () => {
    const deps = await f.treasury({ usdc: 100_000_000n });
    const { request, wallet } = await f.payment(25_500_000n);
    expect(await f.usdcBalance(wallet)).toBeUndefined();

    const outcome = await f.payUntilConfirmed(deps, request);
    expect(outcome).toMatchObject({ status: 'confirmed', signature: expect.any(String) });
    expect(await f.usdcBalance(wallet)).toBe(25_500_000n);
    expect(await f.usdcBalance(deps.treasury.address)).toBe(74_500_000n);

    const intent = await f.intentOf(request.paymentId);
    expect(intent).toMatchObject({
      status: 'confirmed',
      signature: outcome.status === 'confirmed' && outcome.signature,
      supersededSignatures: [],
    });
    const tx = getTransactionDecoder().decode(Buffer.from(intent.wireTransaction as Base64EncodedWireTransaction, 'base64'));
    const message = decompileTransactionMessage(getCompiledTransactionMessageDecoder().decode(tx.messageBytes));
    expect(message.feePayer.address).toBe(deps.treasury.address);
    // The durable nonce's advance first (payoutTransaction.test.ts checks its accounts).
    expect((message.instructions as readonly Instruction[]).map((i) => i.programAddress)).toEqual([
      SYSTEM_PROGRAM_ADDRESS,
      ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
      TOKEN_PROGRAM_ADDRESS,
    ]);

    expect(await f.db.sql`select account, asset, amount::text from ledger_entries where reference = ${intent.id} order by id`).toEqual([
      { account: ACCOUNT.merchantPayable(request.merchantId), asset: 'usdc:solana', amount: '25500000' },
      { account: 'payouts_in_flight', asset: 'usdc:solana', amount: '-25500000' },
      { account: 'payouts_in_flight', asset: 'usdc:solana', amount: '25500000' },
      { account: 'treasury:solana', asset: 'usdc:solana', amount: '-25500000' },
      { account: 'gas_expense:solana', asset: 'sol:solana', amount: FEE.toString() },
      { account: 'account_rent:solana', asset: 'sol:solana', amount: TOKEN_ACCOUNT_RENT.toString() },
      { account: 'treasury:solana', asset: 'sol:solana', amount: (-(FEE + TOKEN_ACCOUNT_RENT)).toString() },
    ]);

    // Finality is recorded when the block is rooted; asking again moves nothing.
    f.chain.produce(FINALITY_DEPTH);
    expect(await createTreasuryPayout(deps)(request)).toMatchObject({ status: 'finalized', finalizedAt: expect.any(String) });
    expect(await findPayout(f.db.sql, request.paymentId)).toMatchObject({
      status: 'finalized',
      amount: 25_500_000n,
      merchantWallet: wallet,
    });
    expect(await f.usdcBalance(wallet)).toBe(25_500_000n);
    expect(f.landedSignatures(await f.intentOf(request.paymentId))).toBe(1);
  });

  it('one payout per payment, ever: the same request again pays nothing more, another amount is refused', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request, wallet } = await f.payment(10_000_000n);
    await f.payUntilConfirmed(deps, request);
    expect(await f.payUntilConfirmed(deps, request)).toMatchObject({ status: 'confirmed' });
    await expect(createTreasuryPayout(deps)({ ...request, amountUsdcBaseUnits: '20000000' })).rejects.toMatchObject({
      type: WorkflowFailure.PayoutRefused,
    });
    f.chain.produce();
    expect(await f.usdcBalance(wallet)).toBe(10_000_000n);
    expect(await f.db.sql`select count(*)::int as n from payouts where payment_id = ${request.paymentId}`).toEqual([{ n: 1 }]);
  });

  it('refuses what it cannot pay: a merchant without a settlement wallet, an amount that is not base units', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request } = await f.payment(1_000_000n);
    const pay = createTreasuryPayout(deps);
    for (const amountUsdcBaseUnits of ['1.5', '-1', '0', '']) {
      await expect(pay({ ...request, amountUsdcBaseUnits })).rejects.toMatchObject({
        type: WorkflowFailure.PayoutRefused,
        nonRetryable: true,
      });
    }
    await f.db.sql`update merchants set settlement_wallet = null where id = ${request.merchantId}`;
    await expect(pay(request)).rejects.toMatchObject({ type: WorkflowFailure.PayoutRefused });
    expect(await findPayout(f.db.sql, request.paymentId)).toBeUndefined();
  });

  it('posts what the merchant is owed only when it accepts the payout: a refused one leaves no payable', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request, wallet } = await f.payment(2_000_000n);
    const payable = ACCOUNT.merchantPayable(request.merchantId);
    // Credited to the payment, as the session workflow records it, for a session whose price is what arrived: $2.
    await f.db
      .sql`update deposits set credited = true where session_id = (select session_id from payments where id = ${request.paymentId})`;
    await f.db.sql`update sessions set amount_usd_cents = 200 where id = (select session_id from payments where id = ${request.paymentId})`;
    // Every group that touches the merchant's payable (a fresh merchant per payment: only this payment's).
    const postings = () =>
      f.db.sql`select group_id, account, amount::text from ledger_entries
        where group_id in (select group_id from ledger_entries where account = ${payable}) order by id`;
    await f.db.sql`update merchants set settlement_wallet = null where id = ${request.merchantId}`;
    await expect(createTreasuryPayout(deps)(request)).rejects.toMatchObject({ type: WorkflowFailure.PayoutRefused });
    expect(await postings()).toEqual([]);

    await f.db.sql`update merchants set settlement_wallet = ${wallet} where id = ${request.merchantId}`;
    await f.payUntilConfirmed(deps, request);
    const [deposit] = await f.db.sql<{ tx_hash: string }[]>`select tx_hash from deposits
      where session_id = (select session_id from payments where id = ${request.paymentId})`;
    expect(await postings()).toEqual([
      { group_id: `deposit:solana:${deposit!.tx_hash}:1:settled`, account: 'merchant_pending:solana', amount: '2000000' },
      { group_id: `deposit:solana:${deposit!.tx_hash}:1:settled`, account: payable, amount: '-2000000' },
      { group_id: `payout:${request.paymentId}:reserve`, account: payable, amount: '2000000' },
      { group_id: `payout:${request.paymentId}:reserve`, account: 'payouts_in_flight', amount: '-2000000' },
    ]);
  });

  it('an existing merchant USDC account is reused and only the fee is spent in SOL', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request, wallet } = await f.payment(1_000_000n);
    await mintTo(f.chain, f.usdc, wallet, 7n);
    f.chain.produce();
    await f.payUntilConfirmed(deps, request);
    expect(await f.usdcBalance(wallet)).toBe(1_000_007n);
    expect(await f.solEntries(`payout:${request.paymentId}`)).toEqual([
      { account: 'gas_expense:solana', amount: FEE.toString() },
      { account: 'treasury:solana', amount: (-FEE).toString() },
    ]);
  });
});

describe('durable nonce accounts', () => {
  it("a treasury's first payout creates its nonce accounts, books their rent as account rent, and pays once they exist", async () => {
    const deps = await f.treasury({ usdc: 10_000_000n }, { nonceAccounts: false });
    const { request, wallet } = await f.payment(1_000_000n);
    const before = f.chain.svm.getBalance(deps.treasury.address) ?? 0n;
    await expect(createTreasuryPayout(deps)(request)).rejects.toMatchObject({ type: WorkflowFailure.PayoutNonceWait, nonRetryable: false });
    expect(await f.intentOf(request.paymentId)).toMatchObject({ status: 'prepared' });
    f.chain.produce();
    const poolCost = before - (f.chain.svm.getBalance(deps.treasury.address) ?? 0n);

    expect(await f.payUntilConfirmed(deps, request)).toMatchObject({ status: 'confirmed' });
    expect(await f.usdcBalance(wallet)).toBe(1_000_000n);
    const rent = await deps.rpc.getMinimumBalanceForRentExemption(80n).send();
    const pool = `nonce-pool:${deps.treasury.address}`;
    expect(
      await f.db.sql`select account, amount::text from ledger_entries where reference = ${pool} and asset = 'sol:solana' order by account`,
    ).toEqual([
      { account: ACCOUNT.accountRent, amount: (rent * BigInt(PAYOUT_NONCE_ACCOUNTS)).toString() },
      { account: ACCOUNT.gasExpense, amount: FEE.toString() },
      { account: ACCOUNT.treasury, amount: (-poolCost).toString() },
    ]);
    expect(await f.db.sql`select count(*)::int as n from solana_nonce_accounts where treasury = ${deps.treasury.address}`).toEqual([
      { n: PAYOUT_NONCE_ACCOUNTS },
    ]);
  });
  it('a node that does not know the landed creation: it is not created twice, and what it cost is booked', async () => {
    const deps = await f.treasury({ usdc: 10_000_000n }, { nonceAccounts: false });
    const { request, wallet } = await f.payment(1_000_000n);
    const node = await startRpcProxy(f.rpcServer.url);
    try {
      const viaNode = { ...deps, rpc: createSolanaRpc(node.url) };
      const before = f.chain.svm.getBalance(deps.treasury.address) ?? 0n;
      await expect(createTreasuryPayout(viaNode)(request)).rejects.toMatchObject({ type: WorkflowFailure.PayoutNonceWait });
      f.chain.produce();
      const poolCost = before - (f.chain.svm.getBalance(deps.treasury.address) ?? 0n);
      node.setPolicy(() => ({
        respond: (call) => {
          if (call.method === 'getSignatureStatuses') return { result: { context: { slot: 1 }, value: [null] } };
          if (call.method === 'getBlockHeight') return { result: Number(f.chain.latestBlock.blockHeight) + 10_000 };
          return { forward: true };
        },
      }));
      expect(await createTreasuryPayout(viaNode)(request)).toMatchObject({ status: 'submitted' });
      const pool = `nonce-pool:${deps.treasury.address}`;
      expect(
        await f.db
          .sql`select account, sum(amount)::text as amount from ledger_entries where reference = ${pool} and account = ${ACCOUNT.treasury} group by account`,
      ).toEqual([{ account: ACCOUNT.treasury, amount: (-poolCost).toString() }]);
      node.setPolicy(() => 'forward');
      expect(await f.payUntilConfirmed(deps, request)).toMatchObject({ status: 'confirmed' });
      expect(await f.usdcBalance(wallet)).toBe(1_000_000n);
    } finally {
      await node.close();
    }
  });
});

describe('treasury liquidity', () => {
  it('short of USDC: signs nothing and waits; once topped up the payout proceeds', async () => {
    const deps = await f.treasury({ usdc: 2_000_000n });
    const { request, wallet } = await f.payment(5_000_000n);
    const pay = createTreasuryPayout(deps);
    f.rpcServer.resetCalls();
    for (let pass = 0; pass < 2; pass++)
      expect(await pay(request)).toEqual({ status: 'awaiting_liquidity', usdcShortfall: '3000000', lamportsShortfall: '0' });
    expect(await f.intentOf(request.paymentId)).toMatchObject({
      status: 'prepared',
      signature: null,
      wireTransaction: null,
      supersededSignatures: [],
    });
    expect(await findPayout(f.db.sql, request.paymentId)).toMatchObject({ status: 'awaiting_liquidity', signature: null });
    expect(f.rpcServer.calls.get('sendTransaction') ?? 0).toBe(0);

    await f.topUp(deps.treasury, 3_000_000n);
    expect(await f.payUntilConfirmed(deps, request)).toMatchObject({ status: 'confirmed' });
    expect(await f.usdcBalance(wallet)).toBe(5_000_000n);
    expect(await f.usdcBalance(deps.treasury.address)).toBe(0n);
  });

  it('short of SOL for the fee and the merchant account rent: waits the same way', async () => {
    const deps = await f.treasury({ usdc: 5_000_000n, sol: 0n });
    const { request } = await f.payment(5_000_000n);
    const walletRent = await deps.rpc.getMinimumBalanceForRentExemption(0n).send();
    expect(await createTreasuryPayout(deps)(request)).toEqual({
      status: 'awaiting_liquidity',
      usdcShortfall: '0',
      lamportsShortfall: (FEE + TOKEN_ACCOUNT_RENT + walletRent).toString(),
    });
    f.chain.svm.airdrop(deps.treasury.address, lamports(FEE + TOKEN_ACCOUNT_RENT + walletRent));
    expect(await f.payUntilConfirmed(deps, request)).toMatchObject({ status: 'confirmed' });
  });

  it('USDC of a payout signed and not yet landed is spoken for', async () => {
    const deps = await f.treasury({ usdc: 8_000_000n });
    const first = await f.payment(5_000_000n);
    const second = await f.payment(5_000_000n);
    const pay = createTreasuryPayout(deps);
    expect(await pay(first.request)).toMatchObject({ status: 'submitted' });
    // Until the first is recorded as landed its amount counts twice (balance already lower, still reserved): the
    // treasury waits a little longer rather than ever signing more than it holds.
    expect(await pay(second.request)).toMatchObject({ status: 'awaiting_liquidity' });
    f.chain.produce();
    expect(await pay(first.request)).toMatchObject({ status: 'confirmed' });
    expect(await pay(second.request)).toMatchObject({ status: 'awaiting_liquidity', usdcShortfall: '2000000' });
    expect(await f.usdcBalance(second.wallet)).toBeUndefined();
  });
});
