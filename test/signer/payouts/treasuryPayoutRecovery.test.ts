// Write-ahead chain writes survive a killed process and an expired blockhash. Each "kill" runs the
// writer's steps up to a point, drops every in-memory object, and runs the whole payout again from the row; the
// chain must then hold exactly one payout. A payout is signed against a durable nonce of its treasury, so its one
// transaction never expires: lost on its way to the leader, or unknown to a node, it is sent again, never replaced.
import { fetchNonce } from '@solana-program/system';
import { createSolanaRpc, type Address, type Base64EncodedWireTransaction } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { createSolanaChainWriter } from '../../../signer/chainWrites/solanaChainWriter';
import { createTreasuryPayout, payoutSigner, recordPayout } from '../../../signer/payouts/treasuryPayout';
import { findPayout } from '../../../db/repositories/payouts';
import { WorkflowFailure } from '../../../domain/session/workflowFailures';
import { FINALITY_DEPTH, MAX_PROCESSING_AGE } from '../../../toolchain/localSolana/localSolanaChain';
import { transfer } from '../../../toolchain/localSolana/splToken';
import { startRpcProxy } from '../../support/evm/rpcProxy';
import { usePayoutFixture, type PayoutFixture } from '../../activities/settlement/payoutFixture';

let f: PayoutFixture;

usePayoutFixture(
  (fixture) => (f = fixture),
  () => (f.rpcServer.dropping = false),
);

describe('a process killed mid-payout resumes from the row and pays once', () => {
  it('killed after the row: nothing was signed, the next run signs and pays', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request, wallet } = await f.payment(3_000_000n);
    await recordPayout(deps, request);
    expect(await f.intentOf(request.paymentId)).toMatchObject({ status: 'prepared', signature: null, wireTransaction: null });

    await f.payUntilConfirmed(deps, request);
    expect(await f.usdcBalance(wallet)).toBe(3_000_000n);
    expect(f.landedSignatures(await f.intentOf(request.paymentId))).toBe(1);
  });

  it('killed after signing: the stored bytes are what the next run broadcasts', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request, wallet } = await f.payment(4_000_000n);
    const payout = await recordPayout(deps, request);
    await createSolanaChainWriter(deps).sign(payout.intentId as string, payoutSigner(deps, payout));
    const signed = await f.intentOf(request.paymentId);
    expect(signed).toMatchObject({
      status: 'signed',
      signature: expect.any(String),
      lastValidBlockHeight: null,
      nonceAccount: expect.any(String),
      nonceValue: expect.any(String),
    });
    expect(f.chain.findTransaction(signed.signature as string)).toBeUndefined();

    const outcome = await f.payUntilConfirmed(deps, request);
    expect(outcome).toMatchObject({ status: 'confirmed', signature: signed.signature });
    expect(await f.intentOf(request.paymentId)).toMatchObject({ wireTransaction: signed.wireTransaction, supersededSignatures: [] });
    expect(await f.usdcBalance(wallet)).toBe(4_000_000n);
  });

  it('killed after broadcasting, before or after recording it: the next run finds the transaction and sends nothing new', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    for (const recorded of [true, false]) {
      const { request, wallet } = await f.payment(5_000_000n);
      const payout = await recordPayout(deps, request);
      const writer = createSolanaChainWriter(deps);
      await writer.sign(payout.intentId as string, payoutSigner(deps, payout));
      const signed = await f.intentOf(request.paymentId);
      if (recorded) await writer.broadcast(payout.intentId as string);
      else await deps.rpc.sendTransaction(signed.wireTransaction as Base64EncodedWireTransaction, { encoding: 'base64' }).send();
      expect((await f.intentOf(request.paymentId)).status).toBe(recorded ? 'broadcast' : 'signed');

      // Still in the slot being filled: seen as processed, not sent again.
      f.rpcServer.resetCalls();
      expect(await createTreasuryPayout(deps)(request)).toMatchObject({ status: 'submitted', signature: signed.signature });
      expect(f.rpcServer.calls.get('sendTransaction')).toBeUndefined();
      f.chain.produce();
      expect(await f.payUntilConfirmed(deps, request)).toMatchObject({ status: 'confirmed', signature: signed.signature });
      expect(await f.usdcBalance(wallet)).toBe(5_000_000n);
      expect(f.landedSignatures(await f.intentOf(request.paymentId))).toBe(1);
    }
  });

  it('sending the same bytes again is harmless: "already processed" counts as sent', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request, wallet } = await f.payment(6_000_000n);
    const payout = await recordPayout(deps, request);
    const writer = createSolanaChainWriter(deps);
    await writer.sign(payout.intentId as string, payoutSigner(deps, payout));
    await writer.broadcast(payout.intentId as string);
    f.rpcServer.resetCalls();
    await expect(writer.broadcast(payout.intentId as string)).resolves.toMatchObject({ status: 'broadcast' });
    expect(f.rpcServer.calls.get('sendTransaction')).toBe(1);
    f.chain.produce();
    await f.payUntilConfirmed(deps, request);
    expect(await f.usdcBalance(wallet)).toBe(6_000_000n);
  });
});

describe('a transaction that outlives any blockhash', () => {
  it('lost on its way to the leader: the same bytes are sent again however far the chain grows, and land once', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request, wallet } = await f.payment(7_000_000n);
    const pay = createTreasuryPayout(deps);
    f.rpcServer.dropping = true;
    const first = await pay(request);
    expect(first).toMatchObject({ status: 'submitted' });
    const lost = await f.intentOf(request.paymentId);
    f.rpcServer.dropping = false;

    // Far past what a blockhash would have lived, and finalized: the nonce has not moved, so nothing new is signed.
    f.chain.produce(MAX_PROCESSING_AGE + FINALITY_DEPTH + 1);
    expect(await f.payUntilConfirmed(deps, request)).toMatchObject({ status: 'confirmed', signature: lost.signature });
    const done = await f.intentOf(request.paymentId);
    expect(done).toMatchObject({ wireTransaction: lost.wireTransaction, supersededSignatures: [] });
    expect(f.landedSignatures(done)).toBe(1);
    expect(await f.usdcBalance(wallet)).toBe(7_000_000n);
  });

  it('signed and never sent until long after (killed after signing): the stored bytes still pay, nothing is signed again', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request, wallet } = await f.payment(8_000_000n);
    const payout = await recordPayout(deps, request);
    await createSolanaChainWriter(deps).sign(payout.intentId as string, payoutSigner(deps, payout));
    const stale = await f.intentOf(request.paymentId);
    f.chain.produce(MAX_PROCESSING_AGE + FINALITY_DEPTH + 1);

    expect(await f.payUntilConfirmed(deps, request)).toMatchObject({ status: 'confirmed', signature: stale.signature });
    const done = await f.intentOf(request.paymentId);
    expect(done.supersededSignatures).toEqual([]);
    expect(f.landedSignatures(done)).toBe(1);
    expect(await f.usdcBalance(wallet)).toBe(8_000_000n);
  });
});

describe('a node without the payout in its history', () => {
  it('one that answers "unknown signature" and a block height past every blockhash: the payout still lands once', async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const { request, wallet } = await f.payment(2_500_000n);
    const node = await startRpcProxy(f.rpcServer.url);
    try {
      const pay = createTreasuryPayout({ ...deps, rpc: createSolanaRpc(node.url) });
      expect(await pay(request)).toMatchObject({ status: 'submitted' });
      f.chain.produce();

      // A pruned or lagging node behind a load balancer: it knows no signature and reports a far finalized height.
      node.setPolicy(() => ({
        respond: (call) => {
          if (call.method === 'getSignatureStatuses') return { result: { context: { slot: 1 }, value: [null] } };
          if (call.method === 'getBlockHeight') return { result: Number(f.chain.latestBlock.blockHeight) + 10_000 };
          return { forward: true };
        },
      }));
      for (let pass = 0; pass < 3; pass++) {
        await pay(request);
        f.chain.produce();
      }
      node.setPolicy(() => 'forward');
      expect(await f.payUntilConfirmed(deps, request)).toMatchObject({ status: 'confirmed' });
    } finally {
      await node.close();
    }
    expect(await f.usdcBalance(wallet)).toBe(2_500_000n);
    expect(f.landedSignatures(await f.intentOf(request.paymentId))).toBe(1);
  });
});

describe('a node that stops answering', () => {
  it('while signing: the call times out, nothing is signed, the treasury is free for the next payout', async () => {
    const deps = { ...(await f.treasury({ usdc: 50_000_000n })), rpcTimeoutMs: 300 };
    const stuck = await f.payment(1_000_000n);
    const next = await f.payment(2_000_000n);
    f.rpcServer.setPolicy((method) => (method === 'getAccountInfo' ? 'hang' : 'forward'));
    await expect(createTreasuryPayout(deps)(stuck.request)).rejects.toThrow();
    f.rpcServer.setPolicy(() => 'forward');
    expect(await f.intentOf(stuck.request.paymentId)).toMatchObject({ status: 'prepared', signature: null });

    expect(await f.payUntilConfirmed(deps, next.request)).toMatchObject({ status: 'confirmed' });
    expect(await f.payUntilConfirmed(deps, stuck.request)).toMatchObject({ status: 'confirmed' });
    expect(await f.usdcBalance(stuck.wallet)).toBe(1_000_000n);
  });
});

describe('a payout transaction that lands and fails', () => {
  it('fails the payout for an operator, releases the reservation, books the fee, and is never re-signed', async () => {
    const deps = await f.treasury({ usdc: 9_000_000n });
    const { request, wallet } = await f.payment(9_000_000n);
    const payout = await recordPayout(deps, request);
    await createSolanaChainWriter(deps).sign(payout.intentId as string, payoutSigner(deps, payout));
    const signed = await f.intentOf(request.paymentId);
    // The treasury is emptied after signing, and the stored bytes reach a leader without preflight: they execute and fail.
    const elsewhere = await f.treasury({ usdc: 0n });
    await transfer(f.chain, f.usdc, deps.treasury, [{ to: elsewhere.treasury.address, amount: 9_000_000n }]);
    await deps.rpc
      .sendTransaction(signed.wireTransaction as Base64EncodedWireTransaction, { encoding: 'base64', skipPreflight: true })
      .send();
    f.chain.produce();

    const pay = createTreasuryPayout(deps);
    for (let pass = 0; pass < 2; pass++)
      await expect(pay(request)).rejects.toMatchObject({ type: WorkflowFailure.PayoutFailed, nonRetryable: true });
    expect(await f.intentOf(request.paymentId)).toMatchObject({
      status: 'failed',
      signature: signed.signature,
      supersededSignatures: [],
      // The nonce advance is the first instruction, the transfer the third.
      error: { InstructionError: [2, { Custom: 1 }] },
    });
    expect(await findPayout(f.db.sql, request.paymentId)).toMatchObject({ status: 'failed', signature: signed.signature });
    // Failing, it still moved its nonce on: the bytes can never land again, and the account is free for another payout.
    const { data: nonce } = await fetchNonce(f.rpc, signed.nonceAccount as Address);
    expect(nonce.blockhash).not.toBe(signed.nonceValue);
    expect(await f.usdcBalance(wallet)).toBeUndefined();
    expect(
      await f.db
        .sql`select account, asset, sum(amount)::text as balance from ledger_entries where reference = ${payout.intentId} group by account, asset having sum(amount) <> 0 order by account`,
    ).toEqual([
      { account: 'gas_expense:solana', asset: 'sol:solana', balance: '5000' },
      { account: 'treasury:solana', asset: 'sol:solana', balance: '-5000' },
    ]);
  });
});
