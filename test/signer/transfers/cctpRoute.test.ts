// The CCTP route's passes (signer/transfers/cctpTransfer.ts) on the stand-ins, driven as the transfer_<id>
// workflow drives them: the collector's USDC burned by the relayer, attested by the loopback attestation server,
// received on the local Solana chain into the treasury; a signer killed between any two steps (a fresh route over
// the same database and chains) credits the treasury once from one burn.
import { generateKeyPairSigner, getBase64EncodedWireTransaction } from '@solana/kit';
import { hexToBytes, type Hex } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { AttestationApiError } from '../../../signer/cctp/attestationClient';
import { feeRecipientTokenAccount, receiveMessageInstruction } from '../../../signer/cctp/receiveMessageInstruction';
import { signTreasuryTransaction } from '../../../signer/payouts/payoutTransaction';
import type { CctpRoute } from '../../../signer/transfers/cctpTransfer';
import { findChainIntent } from '../../../db/repositories/chainIntents';
import { postLedger, unbalancedLedgerGroups } from '../../../db/repositories/ledger';
import { findTransfer } from '../../../db/repositories/transfers';
import { insertInventoryWithdrawal } from '../../../db/repositories/inventoryWithdrawals';
import * as depositCollector from '../../../contracts/artifacts/depositCollector';
import { createEvmInventoryWithdrawal } from '../../../signer/inventory/evmInventoryWithdrawal';
import { receiveIntentId } from '../../../domain/cctp/transfer';
import { ACCOUNT, ASSET } from '../../../domain/ledger/ledger';
import { collectorBurns, startCctpRoute, type CctpRouteFixture } from './cctpRouteFixture';

let f: CctpRouteFixture;
let runs = 0;

/** Lamports the treasury held on chain as the test started. */
let solAtStart: bigint;
/** What reconciliation of the treasury's SOL finds beyond the ledger: its starting SOL, never recorded here. */
let solUnrecorded: bigint;

beforeAll(async () => {
  f = await startCctpRoute({ confirmationMs: 60_000 });
  solUnrecorded = await treasurySolDifference();
}, 120_000);
beforeEach(async () => {
  solAtStart = await treasuryLamports();
});
afterAll(async () => f?.stop());

async function treasuryLamports(): Promise<bigint> {
  const { value } = await f.solanaRpc.getBalance(f.solana.treasury.address, { commitment: 'confirmed' }).send();
  return value;
}

async function ledgerSum(filter: { account: string; asset: string; groupId?: string }): Promise<bigint> {
  const [row] = await f.db.sql<{ sum: string | null }[]>`
    select sum(amount) from ledger_entries
    where account = ${filter.account} and asset = ${filter.asset} ${filter.groupId ? f.db.sql`and group_id = ${filter.groupId}` : f.db.sql``}`;
  return BigInt(row?.sum ?? '0');
}

/** Reconciliation's difference for the treasury's SOL: what the chain holds less what the ledger says it holds. */
async function treasurySolDifference(): Promise<bigint> {
  return (await treasuryLamports()) - (await ledgerSum({ account: ACCOUNT.treasury, asset: ASSET.solSolana }));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function funded(amount: bigint): Promise<{ route: CctpRoute; transferId: string }> {
  await f.evm.mint(f.usdc, f.collector, amount);
  const route = f.route();
  const started = await route.start(`transfer_usdc_ethereum_test-${process.pid}-${runs++}`);
  if (started.status !== 'started') throw new Error(JSON.stringify(started));
  return { route, transferId: started.transferId };
}

async function burned(route: CctpRoute, transferId: string): Promise<void> {
  for (;;) {
    const answer = await route.burn(transferId);
    if (answer.status === 'burned') return;
    if (answer.status === 'failed') throw new Error(answer.reason);
  }
}

/** Polls as the workflow does; the attestation server's clock moves 20 s per poll, so a burn is pending three. */
async function attested(route: CctpRoute, transferId: string): Promise<number> {
  for (let polls = 1; ; polls++) {
    const answer = await route.attestation(transferId);
    if (answer.status === 'attested') return polls;
    f.advanceAttestationClock(20_000);
  }
}

async function received(route: CctpRoute, transferId: string): Promise<bigint> {
  for (;;) {
    const answer = await route.receive(transferId);
    if (answer.status === 'received') return BigInt(answer.received);
    if (answer.status === 'reattesting') await attested(route, transferId);
    else await pause(20);
  }
}

async function inFlightBalance(): Promise<bigint> {
  const [row] = await f.db.sql<{ sum: string | null }[]>`select sum(amount) from ledger_entries where account = 'transfers_in_flight'`;
  return BigInt(row?.sum ?? '0');
}

async function expectSettled(transferId: string, credited: bigint) {
  const transfer = await findTransfer(f.db.sql, transferId);
  expect(transfer).toMatchObject({ stage: 'received', receivedAmount: credited });
  expect(await unbalancedLedgerGroups(f.db.sql)).toEqual([]);
  expect(await inFlightBalance()).toBe(0n);
  const groups = await f.db.sql<
    { group_id: string }[]
  >`select distinct group_id from ledger_entries where reference in (${transferId}, ${transfer!.burnIntentId}) order by group_id`;
  // Our own receive cost the treasury SOL, posted from the landed transaction; another party's cost it nothing.
  const ours = transfer!.receiveIntentId !== null;
  const chainCosts = ours ? [`${transferId}:chain-costs`] : [];
  expect(groups.map((g) => g.group_id)).toEqual(
    [`${transfer!.burnIntentId}:gas`, `${transferId}:burned`, `${transferId}:received`, ...chainCosts].sort(),
  );
  const solSpent = solAtStart - (await treasuryLamports());
  expect(solSpent > 0n).toBe(ours);
  expect(-(await ledgerSum({ account: ACCOUNT.treasury, asset: ASSET.solSolana, groupId: `${transferId}:chain-costs` }))).toBe(solSpent);
  expect(await treasurySolDifference()).toBe(solUnrecorded);
}

describe('CCTP route ethereum → Solana treasury on the stand-ins', () => {
  test('the collector’s USDC reaches the treasury less the fee, and the ledger closes the flight', async () => {
    const treasuryBefore = await f.treasuryUsdcBalance();
    const { route, transferId } = await funded(50_000_000n);
    const transfer = await findTransfer(f.db.sql, transferId);
    expect(transfer).toMatchObject({ stage: 'burning', amount: 50_000_000n, maxFee: 5_000n, speed: 'standard' });
    const started = performance.now();
    await burned(route, transferId);
    expect(await f.collectorBalance()).toBe(0n);
    expect(await attested(route, transferId)).toBe(4);
    const credited = await received(route, transferId);
    const elapsedMs = performance.now() - started;
    console.log(`burn to treasury credited on the stand-ins: ${elapsedMs.toFixed(0)} ms (attestation clock skipped 60 s)`);
    expect(credited).toBe(50_000_000n - 5_000n);
    expect(await f.treasuryUsdcBalance()).toBe(treasuryBefore + credited);
    await expectSettled(transferId, credited);
    // One signature's fee and the rent of the used_nonce account the receive created.
    const costs = (account: string) => ledgerSum({ account, asset: ASSET.solSolana, groupId: `${transferId}:chain-costs` });
    expect(await costs(ACCOUNT.gasExpense)).toBe(5_000n);
    expect(await costs(ACCOUNT.accountRent)).toBe(953_520n);
    // Nothing more to do, however often a pass runs again.
    expect(await route.receive(transferId)).toEqual({ status: 'received', received: credited.toString() });
    await expectSettled(transferId, credited);
  });

  test('below the minimum, or with a transfer in flight, nothing starts', async () => {
    await f.evm.mint(f.usdc, f.collector, 10n);
    expect(await f.route().start(`idle-${runs++}`)).toMatchObject({ status: 'idle' });
    const { transferId } = await funded(5_000_000n);
    expect(await f.route().start(`second-${runs++}`)).toEqual({ status: 'in_flight', transferId });
    const route = f.route();
    await burned(route, transferId);
    await attested(route, transferId);
    await received(route, transferId);
  });

  test('a fee quote above CCTP_MAX_FEE_BPS burns nothing; a Fast one alone above it burns at Standard', async () => {
    await f.evm.mint(f.usdc, f.collector, 7_000_000n);
    const burnsBefore = await f.burnsOnChain();
    // The attestation server quotes 1 bps both ways.
    expect(await f.route({ maxFeeBps: 0.5 }).start(`ceiling-${runs++}`)).toMatchObject({ status: 'idle', feeAboveCeiling: true });
    expect(await f.db.sql`select id from transfers where stage = 'burning'`).toHaveLength(0);
    const { attestation } = f.routeDeps();
    const fastDear = {
      ...attestation,
      fees: () =>
        Promise.resolve([
          { finalityThreshold: 1000, minimumFee: 50 },
          { finalityThreshold: 2000, minimumFee: 1 },
        ]),
    };
    const route = f.route({ speed: 'fast', attestation: fastDear });
    const started = await route.start(`fallback-${runs++}`);
    expect(started).toMatchObject({ status: 'started' });
    const transferId = (started as { transferId: string }).transferId;
    expect(await findTransfer(f.db.sql, transferId)).toMatchObject({ speed: 'standard', maxFee: 700n });
    await burned(route, transferId);
    await attested(route, transferId);
    await expectSettled(transferId, await received(route, transferId));
    expect(await f.burnsOnChain()).toBe(burnsBefore + 1);
  });

  test('the collector’s USDC is burned only once it lies the required confirmations deep', async () => {
    await f.evm.mint(f.usdc, f.collector, 2_000_000n);
    const deep = (runKey: string) => f.route({ confirmations: 4 }).start(runKey);
    expect(await deep(`shallow-${runs++}`)).toMatchObject({ status: 'idle' });
    await f.evm.mine(2);
    expect(await deep(`shallow-${runs++}`)).toMatchObject({ status: 'idle' });
    await f.evm.mine(1);
    const started = await deep(`deep-${runs++}`);
    expect(started).toMatchObject({ status: 'started' });
    const transferId = (started as { transferId: string }).transferId;
    expect(await findTransfer(f.db.sql, transferId)).toMatchObject({ amount: 2_000_000n });
    const route = f.route();
    await burned(route, transferId);
    await attested(route, transferId);
    await received(route, transferId);
  });

  test('an unavailable attestation service is retried; a refusal is not', async () => {
    const { route, transferId } = await funded(3_000_000n);
    await burned(route, transferId);
    f.attestationServer.failNext(2, 503);
    for (let i = 0; i < 2; i++) {
      const error = await route.attestation(transferId).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AttestationApiError);
      expect((error as AttestationApiError).retryable).toBe(true);
    }
    f.attestationServer.failNext(1, 400);
    await expect(route.attestation(transferId)).rejects.toMatchObject({ nonRetryable: true });
    await attested(route, transferId);
    await expectSettled(transferId, await received(route, transferId));
  });

  test('an expired attestation is re-attested and then received', async () => {
    const treasuryBefore = await f.treasuryUsdcBalance();
    const { route, transferId } = await funded(4_000_000n);
    await burned(route, transferId);
    f.attestationServer.expireNext();
    await attested(route, transferId);
    const first = (await findTransfer(f.db.sql, transferId))!;
    expect(await route.receive(transferId)).toEqual({ status: 'reattesting' });
    expect(f.attestationServer.requests().some((path) => path.startsWith('/v2/reattest/'))).toBe(true);
    await attested(route, transferId);
    const credited = await received(route, transferId);
    const last = (await findTransfer(f.db.sql, transferId))!;
    expect(last.nonce).toBe(first.nonce);
    expect(last.message).not.toBe(first.message);
    expect(await f.treasuryUsdcBalance()).toBe(treasuryBefore + credited);
    await expectSettled(transferId, credited);
  });

  test('a nonce another party already received is not received again, and still credited once in the ledger', async () => {
    const treasuryBefore = await f.treasuryUsdcBalance();
    const { route, transferId } = await funded(6_000_000n);
    await burned(route, transferId);
    await attested(route, transferId);
    const transfer = (await findTransfer(f.db.sql, transferId))!;
    // Anyone may complete the mint (destinationCaller 0): here a stranger paying its own fee.
    const payer = await generateKeyPairSigner();
    f.solana.airdrop(payer.address, 1_000_000_000n);
    const instruction = await receiveMessageInstruction({
      payer,
      message: hexToBytes(transfer.message as Hex),
      attestation: hexToBytes(transfer.attestation as Hex),
      usdcMint: f.solana.usdcMint,
      feeRecipientTokenAccount: await feeRecipientTokenAccount(f.solanaRpc, f.solana.usdcMint),
    });
    const { value: lifetime } = await f.solanaRpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const sent = await signTreasuryTransaction(payer, lifetime, [instruction]);
    await f.solanaRpc.sendTransaction(getBase64EncodedWireTransaction(sent), { encoding: 'base64' }).send();
    await waitForCredit(treasuryBefore);
    const credited = await received(route, transferId);
    expect(await f.treasuryUsdcBalance()).toBe(treasuryBefore + credited);
    expect(await findChainIntent(f.db.sql, receiveIntentId(transfer.nonce as Hex))).toBeUndefined();
    await expectSettled(transferId, credited);
  });

  describe('a signer killed between steps credits the treasury once, from one burn', () => {
    type Kill = (route: CctpRoute, transferId: string) => Promise<void>;
    const burnIntent = async (transferId: string) => (await findTransfer(f.db.sql, transferId))!.burnIntentId;
    const kills: [string, Kill][] = [
      ['after the intent row', async () => {}],
      ['after signing the burn', async (_route, transferId) => void (await f.writer().sign(await burnIntent(transferId)))],
      [
        'after broadcasting the burn',
        async (_route, transferId) => {
          const id = await burnIntent(transferId);
          await f.writer().sign(id);
          await f.writer().broadcast(id);
        },
      ],
      [
        'after the attestation',
        async (route, transferId) => {
          await burned(route, transferId);
          await attested(route, transferId);
        },
      ],
      [
        'after sending the receive',
        async (route, transferId) => {
          await burned(route, transferId);
          await attested(route, transferId);
          const transfer = (await findTransfer(f.db.sql, transferId))!;
          // The first receive pass prepares, signs and sends recv:<nonce>; the process dies before it learns more.
          expect(await route.receive(transferId)).toEqual({ status: 'submitted' });
          expect((await findChainIntent(f.db.sql, receiveIntentId(transfer.nonce as Hex)))?.status).toBe('broadcast');
        },
      ],
    ];

    test.each(kills)('%s', async (_name, kill) => {
      const treasuryBefore = await f.treasuryUsdcBalance();
      const burnsBefore = (await collectorBurns(f)).length;
      const { route, transferId } = await funded(2_000_000n);
      await kill(route, transferId);
      const restarted = f.route();
      await burned(restarted, transferId);
      await attested(restarted, transferId);
      const credited = await received(restarted, transferId);
      expect((await collectorBurns(f)).length).toBe(burnsBefore + 1);
      expect(await f.treasuryUsdcBalance()).toBe(treasuryBefore + credited);
      await expectSettled(transferId, credited);
    });
  });
});

async function waitForCredit(before: bigint): Promise<void> {
  while ((await f.treasuryUsdcBalance()) === before) await pause(20);
}

describe('a held-inventory withdrawal from the same collector (the Hardhat chain playing bsc)', () => {
  test('is refused until the owner sets the collector’s address, never above what it holds, then sent once and posted', async () => {
    const usdt = await f.evm.deployToken({ symbol: 'USDT', decimals: 18 });
    const rebalanceTo = f.evm.account(5).address;
    await f.evm.mint(usdt, f.collector, 7n * 10n ** 18n);
    // As a landed sweep posts it: the signer withdraws no more than the ledger holds in the collector either.
    await postLedger(f.db.sql, {
      groupId: 'sweep:bsc:fixture:usdt:bsc',
      mode: 'test',
      reference: 'sweep:bsc:fixture',
      entries: [
        { account: 'collector:bsc', asset: 'usdt:bsc', amount: 7n * 10n ** 18n },
        { account: 'deposits:bsc', asset: 'usdt:bsc', amount: -7n * 10n ** 18n },
      ],
    });
    // A fresh withdrawer per pass, as a signer restarted between any two passes builds it.
    const advance = (id: string) =>
      createEvmInventoryWithdrawal({
        sql: f.signerSql,
        mode: 'test',
        chain: 'bsc',
        client: f.evm.publicClient,
        writer: f.writer(),
        collector: f.collector,
        tokens: [{ symbol: 'USDT', address: usdt, decimals: 18 }],
        confirmations: 1,
        rebalanceAddress: rebalanceTo,
      }).advance(id);
    const requested = (id: string, amount: bigint) =>
      insertInventoryWithdrawal(f.db.sql, {
        id,
        mode: 'test',
        chain: 'bsc',
        token: 'USDT',
        amount,
        toAddress: rebalanceTo,
        requestedBy: 'alice',
      });

    await requested('inw_unset', 5n * 10n ** 18n);
    expect(await advance('inw_unset')).toEqual({
      status: 'failed',
      reason: expect.stringContaining("refused: the collector's rebalanceAddress is 0x0000000000000000000000000000000000000000"),
    });
    expect(await findChainIntent(f.db.sql, 'rebalance:bsc:inw_unset')).toBeUndefined();

    const owner = f.evm.walletClientFor(1);
    const set = await owner.writeContract({
      address: f.collector,
      abi: depositCollector.abi,
      functionName: 'setRebalanceAddress',
      args: [rebalanceTo],
    });
    await f.evm.publicClient.waitForTransactionReceipt({ hash: set });
    await requested('inw_more', 8n * 10n ** 18n);
    expect(await advance('inw_more')).toMatchObject({ status: 'failed', reason: expect.stringContaining('less than 8000000000000000000') });

    await requested('inw_ok', 5n * 10n ** 18n);
    let answer = await advance('inw_ok');
    while (answer.status === 'pending') answer = await advance('inw_ok');
    expect(answer).toMatchObject({ status: 'sent' });
    expect(await advance('inw_ok')).toEqual(answer);
    expect(await f.evm.tokenBalance(usdt, rebalanceTo)).toBe(5n * 10n ** 18n);
    expect(await f.evm.tokenBalance(usdt, f.collector)).toBe(2n * 10n ** 18n);
    const entries = await f.db.sql<{ group_id: string; account: string; asset: string; amount: string }[]>`
      select group_id, account, asset, amount::text from ledger_entries where reference = 'rebalance:bsc:inw_ok' order by group_id, account`;
    expect(entries.filter((e) => e.group_id === 'rebalance:bsc:inw_ok:sent')).toEqual([
      { group_id: 'rebalance:bsc:inw_ok:sent', account: 'collector:bsc', asset: 'usdt:bsc', amount: '-5000000000000000000' },
      { group_id: 'rebalance:bsc:inw_ok:sent', account: 'rebalancing:bsc', asset: 'usdt:bsc', amount: '5000000000000000000' },
    ]);
    expect(entries.some((e) => e.group_id === 'rebalance:bsc:inw_ok:gas')).toBe(true);
    expect(await unbalancedLedgerGroups(f.db.sql)).toEqual([]);
  });
});
