// A credited payment is settled from the Solana USDC treasury by the signer, through the
// settle_<pay_id> child workflow, on the local litesvm chain behind its JSON-RPC endpoint and a real Postgres: the
// merchant's USDC balance rises by exactly the amount, once, and the settlement names the payout's signature. A
// signer without a test treasury still settles the same session simulated, paying nothing, and a simulated
// receipt is never paid from the treasury. Live USDC on solana,
// the first live route, is paid by the live treasury (mainnet pointed at the local chain), and any other live
// settlement fails loudly; a short treasury makes
// the settlement wait, never fail, and pays once topped up.
import { createSolanaRpc, generateKeyPairSigner, type Address, type Signature } from '@solana/kit';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityDeps } from '../../activities';
import { sessionDetail } from '../../api/dashboard/sessionDetail';
import { depositXpubsFromSeeds } from '../../domain/addresses/hdDerivation';
import { chainRegistryPaymentNetwork } from '../../activities/payments/paymentNetwork';
import type { SignerDeps } from '../../signer/activities';
import { loadChainsConfig } from '../../config/chains';
import { loadConfig } from '../../config/env';
import { postLedger } from '../../db/repositories/ledger';
import { setMerchantFee, setSettlementWallet } from '../../db/repositories/merchants';
import { NO_FEE } from '../../domain/settlement/merchantFee';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import type { Chain } from '../../domain/chains/chains';
import { paymentIdForSession } from '../../domain/wire/ids';
import { parseLivePrices } from '../../domain/money/pricing';
import type { Mode } from '../../domain/wire/session';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { startLocalSolana, type LocalSolana } from '../../toolchain/localSolana/localSolana';
import { associatedTokenAccount } from '../../toolchain/localSolana/splToken';
import {
  depositConfirmedSignal,
  depositDetectedSignal,
  getStateQuery,
  selectPaymentUpdate,
  simulateUpdate,
} from '../../workflows/messages';
import { SettlementStageAttribute } from '../../workflows/searchAttributes';
import type { checkoutSession } from '../../workflows/checkoutSession';
import type { settlePayment } from '../../workflows/settlePayment';
import { signerDepsFromConfig } from '../../signer/worker';
import { createWorkflowHarness, deposit, indexerRecords, waitForState, type WorkflowHarness } from '../support/workflowHarness';
import { insertTestRefund } from '../support/refunds';
import { EVERY_CHAIN_INDEXED } from '../support/service';

let h: WorkflowHarness;
let solana: LocalSolana;
let signer: SignerDeps;
/** A signer whose live treasury is the local chain's, standing in for mainnet, with a live deposit seed. */
let liveSigner: SignerDeps;
/** The main worker's view of that mainnet: USDC on solana is the local mint. */
let liveNetwork: Partial<ActivityDeps>;
/** Enough for the first tests' payouts, and little enough that the short-treasury test can ask for more. */
const TREASURY_USDC = 100_000_000n;
const LIVE_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

beforeAll(async () => {
  [h, solana] = await Promise.all([createWorkflowHarness(), startLocalSolana({ port: 0, treasuryUsdc: TREASURY_USDC })]);
  // The signer as it starts in production, from its environment: the local treasury key, the worker's role, no memo.
  const env = { ...solana.env, ...solana.signerEnv, SOLANA_PAYOUT_MEMO: 'false', DATABASE_URL: h.db.urlAs('checkout_signer') };
  signer = await signerDepsFromConfig(loadConfig(env, 'dev'), loadChainsConfig(env));
  const mainnet = {
    // A live payout's deposits are re-read from a second URL; the same local node under another path stands in for it.
    RPC_URLS_SOLANA_MAINNET: `${solana.rpcUrl},${solana.rpcUrl}/reread`,
    TOKEN_USDC_SOLANA_MAINNET: `${solana.usdcMint}:${solana.usdcDecimals}`,
    ALLOW_MAINNET_TOKEN_OVERRIDES: 'true',
  };
  const liveEnv = {
    ...mainnet,
    SOLANA_TREASURY_KEY_LIVE: solana.signerEnv.SOLANA_TREASURY_KEY_TEST,
    DEPOSIT_MNEMONIC_LIVE: LIVE_MNEMONIC,
    SOLANA_PAYOUT_MEMO: 'false',
    DATABASE_URL: h.db.urlAs('checkout_signer'),
  };
  liveSigner = await signerDepsFromConfig(loadConfig(liveEnv, 'dev'), loadChainsConfig(liveEnv));
  liveNetwork = {
    depositXpubs: depositXpubsFromSeeds(liveSigner.depositSeeds),
    paymentNetwork: chainRegistryPaymentNetwork(createChainRegistry(loadChainsConfig(mainnet))),
    liveTokenPrices: parseLivePrices('USDC=1'),
  };
});
beforeEach(() => h.freshEnvironment());
afterAll(async () => {
  await signer?.treasuries?.test?.sql.end({ timeout: 5 });
  await liveSigner?.treasuries?.live?.sql.end({ timeout: 5 });
  await solana?.stop();
  await h?.teardown();
});

const rpc = () => createSolanaRpc(solana.rpcUrl);

/** The SettlementStage search attribute of settle_<pay_id>, as the Temporal UI filters on it. */
const settlementStage = async (paymentId: string) =>
  (await h.env.client.workflow.getHandle(`settle_${paymentId}`).describe()).typedSearchAttributes.get(SettlementStageAttribute);

/** The session's status and why, as the dashboard's detail page shows them from the read model. */
async function readModel(sessionId: string) {
  const detail = await sessionDetail(
    {
      sql: h.db.sql,
      registry: createChainRegistry(loadChainsConfig({})),
      offer: { liveRoutes: [], indexed: EVERY_CHAIN_INDEXED },
      config: { minimumDepositCents: 1 },
    },
    { merchantId: h.merchant.merchant.id, mode: 'test' },
    sessionId,
  );
  return { status: detail.session.status, reason: detail.status_reason };
}

async function usdcBalance(owner: Address): Promise<bigint> {
  const account = await associatedTokenAccount(owner, solana.usdcMint);
  if (!(await rpc().getAccountInfo(account, { encoding: 'base64' }).send()).value) return 0n;
  return BigInt((await rpc().getTokenAccountBalance(account).send()).value.amount);
}

/** A fresh settlement wallet for the harness's merchant, so each test reads a balance nobody else touched. */
async function freshWallet(): Promise<Address> {
  const wallet = (await generateKeyPairSigner()).address;
  await setSettlementWallet(h.db.sql, h.merchant.merchant.id, wallet);
  return wallet;
}

/**
 * A session paid in full in USDC (test: on base), and `extra` base units more, as the indexer reports it; resolves once
 * it closed paid or failed.
 */
async function payInUsdc(amountUsdCents: string, mode: Mode = 'test', chain: Chain = 'base', extra = 0n) {
  const { record, handle } = await startPaid(amountUsdCents, mode, chain, extra);
  const state = await waitForState(handle, (s) => ['completed', 'overpaid', 'failed'].includes(s.status), 60_000);
  return { record, state, paymentId: paymentIdForSession(record.sessionId) };
}

/** USDC minted to `owner` on the local chain, once landed: the transaction and token account the indexer would record. */
async function landedDeposit(owner: Address, amount: bigint): Promise<{ txHash: string; logIndex: number }> {
  const sent = await solana.mintUsdc(owner, amount);
  for (let attempt = 0; attempt < 50; attempt++) {
    const landed = await rpc()
      .getTransaction(sent.signature as Signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 })
      .send();
    const credited = landed?.meta?.postTokenBalances?.find((b) => b.owner === owner);
    if (credited) return { txHash: sent.signature, logIndex: credited.accountIndex };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the deposit ${sent.signature} to ${owner} did not land`);
}

/** A session paid in full (and `extra` more), as the indexer reports it: the deposit detected, then confirmed. */
async function startPaid(amountUsdCents: string, mode: Mode, chain: Chain, extra = 0n) {
  const record = await h.record({ amountUsdCents, mode, supportedTokens: { USDC: [chain] } });
  const handle: WorkflowHandle<typeof checkoutSession> = await h.start(record);
  const instructions = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain }] });
  const amount = (BigInt(instructions.amount_base_units) + extra).toString();
  const paid = deposit({ chain, amount, toAddress: instructions.deposit_address });
  // The signer re-reads every live payout's deposits from the chain: a live deposit really lands on it.
  if (mode === 'live' && chain === 'solana')
    Object.assign(paid, await landedDeposit(instructions.deposit_address as Address, BigInt(amount)));
  const confirmations = instructions.confirmations_required;
  await indexerRecords(h.db.sql, record.sessionId, paid, { mode });
  await handle.signal(depositDetectedSignal, paid);
  await indexerRecords(h.db.sql, record.sessionId, paid, { mode, confirmations });
  await handle.signal(depositConfirmedSignal, { ...paid, confirmations });
  return { record, handle };
}

describe('settlement through the Solana treasury', () => {
  it('pays a test-mode session from the treasury: exactly the amount, once, referenced by the payout signature', async () => {
    const wallet = await freshWallet();
    await h.withWorker(
      async () => {
        const { record, state, paymentId } = await payInUsdc('2550');
        expect(state.status).toBe('completed');
        expect(state.settlement).toMatchObject({ provider: 'solana-treasury', amountUsdc: '25500000' });
        const signature = state.settlement!.reference;
        const { value } = await rpc()
          .getSignatureStatuses([signature as Signature], { searchTransactionHistory: true })
          .send();
        expect(value[0]).toMatchObject({ err: null });
        expect(await usdcBalance(wallet)).toBe(25_500_000n);

        expect(
          await h.db
            .sql`select amount_base_units::text as amount, merchant_wallet as wallet, signature, status from payouts where payment_id = ${paymentId}`,
        ).toEqual([{ amount: '25500000', wallet, signature, status: 'confirmed' }]);
        expect(
          await h.db
            .sql`select provider, status, reference, amount_usdc_base_units::text as amount from settlements where payment_id = ${paymentId}`,
        ).toEqual([{ provider: 'solana-treasury', status: 'settled', reference: signature, amount: '25500000' }]);
        await expect.poll(() => settlementStage(paymentId), { timeout: 10_000 }).toBe('confirmed');
        // settled_at is the payout's block time as the chain records it; the webhook names the payout's signature.
        const landed = await rpc()
          .getTransaction(signature as Signature, { encoding: 'base64', commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
          .send();
        expect(state.settlement!.settledAt).toBe(new Date(Number(landed!.blockTime) * 1000).toISOString());
        const [completed] = await h.db.sql<
          { body: string }[]
        >`select body from webhook_deliveries where session_id = ${record.sessionId} and event = 'payment.completed'`;
        expect(JSON.parse(completed!.body).settlement).toEqual({
          amount_usdc: '25.500000',
          chain: 'solana',
          settled_at: state.settlement!.settledAt,
          reference: signature,
          provider: 'solana-treasury',
        });
      },
      {},
      {},
      signer,
    );
  });

  it("nets what the merchant owes for refunds: a payout it takes whole sends nothing and settles netted, the next sends the rest less the operator's fee", async () => {
    const wallet = await freshWallet();
    const merchantId = h.merchant.merchant.id;
    // The merchant owes 30 USDC for a refund the treasury paid, as its landed payment leaves the ledger: the signer's
    // refund_payouts row, and its reservation charged to the merchant's receivable.
    const refunded = await h.record();
    await insertSessionRecord(h.db.sql, refunded, 'completed');
    const refund = await insertTestRefund(h.db.sql, refunded, { status: 'completed', payout: 'confirmed', amountUsdMicros: 30_000_000n });
    await postLedger(h.db.sql, {
      groupId: `refund:${refund.id}:reserve`,
      mode: 'test',
      reference: `refund:${refund.id}`,
      entries: [
        { account: `merchant_receivable:${merchantId}`, asset: 'usdc:solana', amount: 30_000_000n },
        { account: 'refunds_in_flight', asset: 'usdc:solana', amount: -30_000_000n },
      ],
    });
    // The payment.completed delivery, once the session's announcement wrote it.
    const settlementOf = async (sessionId: string) => {
      const delivered = () => h.db.sql<{ body: string }[]>`
        select body from webhook_deliveries where session_id = ${sessionId} and event = 'payment.completed'`;
      await expect.poll(async () => (await delivered()).length, { timeout: 10_000 }).toBe(1);
      return JSON.parse((await delivered())[0]!.body).settlement;
    };
    const detailOf = (sessionId: string) =>
      sessionDetail(
        {
          sql: h.db.sql,
          registry: createChainRegistry(loadChainsConfig({})),
          offer: { liveRoutes: [], indexed: EVERY_CHAIN_INDEXED },
          config: { minimumDepositCents: 1 },
        },
        { merchantId, mode: 'test' },
        sessionId,
      );
    await h.withWorker(
      async () => {
        const whole = await payInUsdc('2550');
        expect(whole.state.status).toBe('completed');
        expect(whole.state.settlement).toMatchObject({
          provider: 'solana-treasury',
          reference: `netted:${whole.paymentId}`,
          amountUsdc: '25500000',
          nettedUsdc: '25500000',
        });
        expect(await usdcBalance(wallet)).toBe(0n);
        expect(await h.db.sql`select status, signature, intent_id from payouts where payment_id = ${whole.paymentId}`).toEqual([
          { status: 'netted', signature: null, intent_id: null },
        ]);
        expect(await settlementOf(whole.record.sessionId)).toMatchObject({
          amount_usdc: '25.500000',
          netted_usdc: '25.500000',
          reference: `netted:${whole.paymentId}`,
        });
        expect((await detailOf(whole.record.sessionId)).settlement).toMatchObject({ amount_usdc: '25.500000', netted_usdc: '25.500000' });

        // 1 % and 5 cents of the next 10 USDC are the operator's, taken before the netting: 5.35 sent.
        await setMerchantFee(h.db.sql, merchantId, { bps: 100, fixedCents: 5n });
        const rest = await payInUsdc('1000').finally(() => setMerchantFee(h.db.sql, merchantId, NO_FEE));
        expect(rest.state.status).toBe('completed');
        expect(await usdcBalance(wallet)).toBe(5_350_000n);
        expect(rest.state.settlement).toMatchObject({ amountUsdc: '10000000', nettedUsdc: '4500000', feeUsdc: '150000' });
        expect(await settlementOf(rest.record.sessionId)).toMatchObject({
          amount_usdc: '10.000000',
          netted_usdc: '4.500000',
          fee_usdc: '0.150000',
        });
        expect((await detailOf(rest.record.sessionId)).settlement).toMatchObject({ netted_usdc: '4.500000', fee_usdc: '0.150000' });
        expect(await settlementOf(whole.record.sessionId)).not.toHaveProperty('fee_usdc');
        expect(
          await h.db
            .sql`select coalesce(sum(amount), 0)::text as owed from ledger_entries where account = ${`merchant_receivable:${merchantId}`}`,
        ).toEqual([{ owed: '0' }]);
      },
      {},
      {},
      signer,
    );
  });

  it('never pays a simulated receipt from the treasury, even with a treasury at hand', async () => {
    const wallet = await freshWallet();
    await h.withWorker(
      async () => {
        const record = await h.record({ amountUsdCents: '900' });
        const handle = await h.start(record);
        await handle.executeUpdate(simulateUpdate, { args: [{ status: 'completed' }] });
        const state = await waitForState(handle, (s) => s.status === 'completed');
        const paymentId = paymentIdForSession(record.sessionId);
        expect(state.settlement).toMatchObject({ provider: 'simulated', reference: `sim_${paymentId}` });
        expect(await h.db.sql`select count(*)::int as n from payouts where payment_id = ${paymentId}`).toEqual([{ n: 0 }]);
        expect(await usdcBalance(wallet)).toBe(0n);
      },
      {},
      {},
      signer,
    );
  });

  it('settles the same session simulated when the signer holds no test treasury, paying nothing', async () => {
    const wallet = await freshWallet();
    await h.withWorker(async () => {
      const { state, paymentId } = await payInUsdc('1200');
      expect(state.status).toBe('completed');
      expect(state.settlement).toMatchObject({ provider: 'simulated', reference: `sim_${paymentId}`, amountUsdc: '12000000' });
      expect(await h.db.sql`select provider, status from settlements where payment_id = ${paymentId}`).toEqual([
        { provider: 'simulated', status: 'settled' },
      ]);
      expect(await h.db.sql`select count(*)::int as n from payouts where payment_id = ${paymentId}`).toEqual([{ n: 0 }]);
      expect(await usdcBalance(wallet)).toBe(0n);
    });
  });

  it('pays a live session in USDC on solana, the first live route, from the live treasury', async () => {
    const wallet = await freshWallet();
    await h.withWorker(
      async () => {
        const { state, paymentId } = await payInUsdc('700', 'live', 'solana');
        expect(state.status).toBe('completed');
        expect(state.settlement).toMatchObject({ provider: 'solana-treasury', amountUsdc: '7000000' });
        expect(await usdcBalance(wallet)).toBe(7_000_000n);
        expect(
          await h.db.sql`select mode, amount_base_units::text as amount, signature from payouts where payment_id = ${paymentId}`,
        ).toEqual([{ mode: 'live', amount: '7000000', signature: state.settlement!.reference }]);
        // The deposit was posted to deposits:solana, pending for the merchant, when the workflow credited it; what the
        // merchant is owed when the signer accepted the payout, just before it reserved it.
        const [deposit] = await h.db.sql<
          { tx_hash: string; log_index: number }[]
        >`select tx_hash, log_index from deposits where session_id = (select session_id from payments where id = ${paymentId})`;
        const credit = `deposit:solana:${deposit?.tx_hash}:${deposit?.log_index}`;
        expect(
          await h.db
            .sql`select group_id, account, amount::text, id < (select min(id) from ledger_entries where reference = ${`payout:${paymentId}`}) as before_payout
              from ledger_entries where reference = ${credit} order by id`,
        ).toEqual([
          { group_id: credit, account: 'deposits:solana', amount: '7000000', before_payout: true },
          { group_id: credit, account: 'merchant_pending:solana', amount: '-7000000', before_payout: true },
          { group_id: `${credit}:settled`, account: 'merchant_pending:solana', amount: '7000000', before_payout: true },
          { group_id: `${credit}:settled`, account: `merchant_payable:${h.merchant.merchant.id}`, amount: '-7000000', before_payout: true },
        ]);
      },
      liveNetwork,
      {},
      liveSigner,
    );
  });

  it('pays an overpaid session its price, not what arrived: the excess is posted as owed to the customer', async () => {
    const wallet = await freshWallet();
    await h.withWorker(
      async () => {
        const { state, paymentId } = await payInUsdc('2550', 'test', 'base', 10_000_000n);
        expect(state.status).toBe('overpaid');
        expect(state.settlement).toMatchObject({ provider: 'solana-treasury', amountUsdc: '25500000' });
        expect(await usdcBalance(wallet)).toBe(25_500_000n);
        const [deposit] = await h.db.sql<
          { tx_hash: string }[]
        >`select tx_hash from deposits where session_id = (select session_id from payments where id = ${paymentId})`;
        expect(
          await h.db
            .sql`select account, asset, sum(amount)::text as amount from ledger_entries where reference = ${`deposit:base:${deposit?.tx_hash}:0`}
              group by account, asset having sum(amount) <> 0 order by account, asset`,
        ).toEqual([
          { account: 'cross_chain_clearing', asset: 'usdc:base', amount: '-25500000' },
          { account: 'cross_chain_clearing', asset: 'usdc:solana', amount: '25500000' },
          { account: 'deposits:base', asset: 'usdc:base', amount: '35500000' },
          { account: `merchant_payable:${h.merchant.merchant.id}`, asset: 'usdc:solana', amount: '-25500000' },
          { account: 'refund_due:base', asset: 'usdc:base', amount: '-10000000' },
        ]);
      },
      {},
      {},
      signer,
    );
  });

  it("pays a live session at the rate quoted at selection: $7 in USDC at 0.95 pays 7 USDC, the difference is the operator's", async () => {
    const wallet = await freshWallet();
    await h.withWorker(
      async () => {
        const { state, paymentId } = await payInUsdc('700', 'live', 'solana');
        expect(state.status).toBe('completed');
        expect(state.selection?.amount_base_units).toBe('7368422');
        expect(state.settlement).toMatchObject({ provider: 'solana-treasury', amountUsdc: '7000000' });
        expect(await usdcBalance(wallet)).toBe(7_000_000n);
        const [deposit] = await h.db.sql<
          { tx_hash: string; log_index: number }[]
        >`select tx_hash, log_index from deposits where session_id = (select session_id from payments where id = ${paymentId})`;
        expect(
          await h.db
            .sql`select account, sum(amount)::text as amount from ledger_entries where reference = ${`deposit:solana:${deposit?.tx_hash}:${deposit?.log_index}`}
              group by account having sum(amount) <> 0 order by account`,
        ).toEqual([
          { account: 'deposits:solana', amount: '7368422' },
          { account: `merchant_payable:${h.merchant.merchant.id}`, amount: '-7000000' },
          { account: 'operator_held:solana', amount: '-368422' },
        ]);
      },
      { ...liveNetwork, liveTokenPrices: parseLivePrices('USDC=0.95') },
      {},
      liveSigner,
    );
  });

  it('live: a signer without a live treasury, or a pair outside SETTLEMENT_LIVE_ROUTES, fails the session loudly and pays nothing', async () => {
    const wallet = await freshWallet();
    await h.withWorker(
      async () => {
        const { state, paymentId } = await payInUsdc('300', 'live', 'solana');
        expect(state.status).toBe('failed');
        expect(state.failureReason).toBe(
          `The signer holds no live treasury (SOLANA_TREASURY_KEY_LIVE) to settle ${paymentId}; funds are held at the deposit address`,
        );
        expect(await h.db.sql`select count(*)::int as n from payouts where payment_id = ${paymentId}`).toEqual([{ n: 0 }]);
      },
      liveNetwork,
      {},
      { depositSeeds: liveSigner.depositSeeds },
    );
    await h.withWorker(
      async () => {
        const { state, paymentId } = await payInUsdc('300', 'live', 'base');
        expect(state.status).toBe('failed');
        expect(state.failureReason).toBe('No live settlement route for USDC on base; funds are held at the deposit address');
        expect(await h.db.sql`select count(*)::int as n from payouts where payment_id = ${paymentId}`).toEqual([{ n: 0 }]);
      },
      liveNetwork,
      {},
      liveSigner,
    );
    expect(await usdcBalance(wallet)).toBe(0n);
  });

  it('pays nothing on a forged confirmation: neither through the session nor through settle_<pay_id> started directly', async () => {
    const wallet = await freshWallet();
    const treasury = await usdcBalance(solana.treasury.address);
    await h.withWorker(
      async () => {
        const record = await h.record({ amountUsdCents: '2000', supportedTokens: { USDC: ['base'] } });
        const handle = await h.start(record);
        const instructions = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
        // Signals straight to Temporal, for a deposit no indexer ever saw.
        const forged = deposit({ chain: 'base', amount: instructions.amount_base_units, toAddress: instructions.deposit_address });
        await handle.signal(depositDetectedSignal, forged);
        await handle.signal(depositConfirmedSignal, { ...forged, confirmations: instructions.confirmations_required });
        const refused = await waitForState(handle, (s) =>
          s.transitions.some(
            (t) => t.reason === `confirmation of deposit ${forged.txHash} is not backed by the indexer's records; not credited`,
          ),
        );
        expect(refused).toMatchObject({ status: 'awaiting_payment', receivedBaseUnits: '0' });

        // Whoever sent those can start the payout workflow too: the signer refuses it on the indexer's facts.
        const paymentId = paymentIdForSession(record.sessionId);
        const payout = await h.env.client.workflow.start<typeof settlePayment>('settlePayment', {
          workflowId: `settle_${paymentId}`,
          taskQueue: (await handle.describe()).taskQueue,
          args: [
            {
              route: 'treasury',
              paymentId,
              sessionId: record.sessionId,
              merchantId: record.merchantId,
              mode: 'test',
              amountUsdcBaseUnits: '20000000',
            },
          ],
        });
        await expect(payout.result()).rejects.toMatchObject({
          cause: {
            type: WorkflowFailure.PayoutRefused,
            message: expect.stringContaining('add up to 0 USDC base units, less than the payout of 20000000'),
          },
        });
        expect(await h.db.sql`select count(*)::int as n from payouts where payment_id = ${paymentId}`).toEqual([{ n: 0 }]);
        expect(await h.db.sql`select count(*)::int as n from ledger_entries where reference = ${`payout:${paymentId}`}`).toEqual([
          { n: 0 },
        ]);
      },
      {},
      {},
      signer,
    );
    expect(await usdcBalance(wallet)).toBe(0n);
    expect(await usdcBalance(solana.treasury.address)).toBe(treasury);
  });

  it('waits while the treasury is short, without failing the session, and pays once it is topped up', async () => {
    const wallet = await freshWallet();
    const shortBy = 5_000_000n;
    const amount = (await usdcBalance(solana.treasury.address)) + shortBy;
    await h.withWorker(
      async () => {
        const { record, handle } = await startPaid((amount / 10_000n).toString(), 'test', 'base');
        const paymentId = paymentIdForSession(record.sessionId);
        await expect
          .poll(async () => (await h.db.sql`select status from payouts where payment_id = ${paymentId}`)[0]?.status, { timeout: 30_000 })
          .toBe('awaiting_liquidity');
        expect((await handle.query(getStateQuery)).status).toBe('confirming');
        await expect.poll(() => settlementStage(paymentId), { timeout: 10_000 }).toBe('awaiting_liquidity');
        // The session's read model says why it is still confirming, while its timeline records no change of status.
        await expect
          .poll(() => readModel(record.sessionId), { timeout: 10_000 })
          .toEqual({ status: 'confirming', reason: 'awaiting settlement liquidity' });
        const timeline = await h.db
          .sql`select to_status, reason from session_status_changes where session_id = ${record.sessionId} order by id`;
        expect(timeline.map((c) => c.reason)).not.toContain('awaiting settlement liquidity');
        expect(await usdcBalance(wallet)).toBe(0n);

        await solana.mintUsdc(solana.treasury.address, shortBy);
        // The settlement checks back every 30 s of workflow time; the test server's clock is moved past that.
        await h.env.sleep('31 seconds');
        const state = await waitForState(handle, (s) => s.status === 'completed' || s.status === 'failed', 60_000);
        expect(state.status).toBe('completed');
        expect(state.settlement).toMatchObject({ provider: 'solana-treasury', amountUsdc: amount.toString() });
        expect(await usdcBalance(wallet)).toBe(amount);
        expect(await h.db.sql`select count(*)::int as n from payouts where payment_id = ${paymentId}`).toEqual([{ n: 1 }]);
        await expect.poll(() => settlementStage(paymentId), { timeout: 10_000 }).toBe('confirmed');
        expect(await readModel(record.sessionId)).toEqual({ status: 'completed', reason: state.transitions.at(-1)?.reason });
      },
      {},
      {},
      signer,
    );
  });
  it('a wait of days goes on in fresh runs (continue-as-new), still announced once and paying once', async () => {
    const wallet = await freshWallet();
    const shortBy = 1_000_000n;
    const amount = (await usdcBalance(solana.treasury.address)) + shortBy;
    await h.withWorker(
      async () => {
        // A confirming session whose deposit the indexer confirmed; its settlement is started directly so that a
        // test-sized history limit can be given (in production, some 500 passes of the liquidity poll).
        const record = await h.record({ amountUsdCents: (amount / 10_000n).toString(), supportedTokens: { USDC: ['base'] } });
        const handle = await h.start(record);
        const instructions = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
        const paid = deposit({ chain: 'base', amount: instructions.amount_base_units, toAddress: instructions.deposit_address });
        await indexerRecords(h.db.sql, record.sessionId, paid);
        await handle.signal(depositDetectedSignal, paid);
        await waitForState(handle, (state) => state.status === 'confirming');
        await indexerRecords(h.db.sql, record.sessionId, paid, { confirmations: instructions.confirmations_required });
        // Credited, as the session's workflow records it once the confirmation reaches it: the signer pays credited deposits only.
        await h.db.sql`update deposits set credited = true where session_id = ${record.sessionId}`;
        const paymentId = paymentIdForSession(record.sessionId);
        const settlement = await h.env.client.workflow.start<typeof settlePayment>('settlePayment', {
          workflowId: `settle_${paymentId}`,
          taskQueue: (await handle.describe()).taskQueue,
          args: [
            {
              route: 'treasury',
              paymentId,
              sessionId: record.sessionId,
              merchantId: record.merchantId,
              mode: 'test',
              amountUsdcBaseUnits: amount.toString(),
              runHistoryLimit: 40,
            },
          ],
        });
        await expect.poll(() => settlementStage(paymentId), { timeout: 30_000 }).toBe('awaiting_liquidity');
        const firstRun = settlement.firstExecutionRunId;
        const currentRun = async () => (await h.env.client.workflow.getHandle(`settle_${paymentId}`).describe()).runId;
        for (let pass = 0; pass < 12 && (await currentRun()) === firstRun; pass++) await h.env.sleep('31 seconds');
        expect(await currentRun()).not.toBe(firstRun);
        // The fresh run carries what was announced: the stage stays, and the wait is not announced again.
        expect(await settlementStage(paymentId)).toBe('awaiting_liquidity');
        expect(await readModel(record.sessionId)).toEqual({ status: 'confirming', reason: 'awaiting settlement liquidity' });

        await solana.mintUsdc(solana.treasury.address, shortBy);
        await h.env.sleep('31 seconds');
        const outcome = await h.env.client.workflow.getHandle<typeof settlePayment>(`settle_${paymentId}`).result();
        expect(outcome).toMatchObject({ provider: 'solana-treasury', amountUsdc: amount.toString() });
        expect(await usdcBalance(wallet)).toBe(amount);
        expect(await h.db.sql`select count(*)::int as n from payouts where payment_id = ${paymentId}`).toEqual([{ n: 1 }]);
        await expect.poll(() => settlementStage(paymentId), { timeout: 10_000 }).toBe('confirmed');
        // The wait ended in the fresh run, which knew it had been announced: the reason is taken back.
        expect((await readModel(record.sessionId)).reason).not.toBe('awaiting settlement liquidity');
      },
      {},
      {},
      signer,
    );
  });
});
