// A test-mode USDC payment on the local EVM chain is settled from the Solana treasury. The whole path is
// real: the session created and paid through the HTTP API, a forwarder deposit address of the deposit factory
// deployed through the deterministic deployment proxy, an ERC-20 transfer on Hardhat seen by the EVM indexer, the
// session workflow on Temporal, the signer re-reading the deposit from the node (threshold 0) before it pays from
// the local Solana chain's treasury. The merchant is paid exactly once, and the ledger balances with
// cross_chain_clearing holding the base USDC the treasury lent against until a transfer carries it to Solana. Then
// the inventory path `npm start` and `npm run demo` run: the relayer sweeps the deposit address into the
// DepositCollector, the collector burns through the TokenMessengerV2 stand-in, the attestation stand-in attests, and
// receive_message on the local Solana chain refills the treasury, leaving the ledger with no USDC position open.
import { createSolanaRpc, generateKeyPairSigner, type Address as SolanaAddress, type Signature } from '@solana/kit';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reconcileLedger, type TreasuryView } from '../../activities/settlement/ledgerReconciliation';
import { loadChainsConfig } from '../../config/chains';
import { setSettlementWallet } from '../../db/repositories/merchants';
import { depositSalt } from '../../domain/addresses/depositSalt';
import { evmForwarderAddress } from '../../domain/addresses/depositForwarder';
import { CHAIN_FACTS } from '../../domain/chains/chains';
import type { ChainIndexer } from '../../indexers/core/chainIndexer';
import type { AttestationServer } from '../../toolchain/cctp/attestationServer';
import { deployInventoryContracts, startDevAttestation } from '../../toolchain/localChain/devChain';
import type { DevDepositContracts } from '../../toolchain/localChain/devDepositContracts';
import { createLocalChain, type LocalChain } from '../../toolchain/localChain/localChain';
import { startLocalSolana, type LocalSolana } from '../../toolchain/localSolana/localSolana';
import { associatedTokenAccount } from '../../toolchain/localSolana/splToken';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';
import { baseTestnetIndexer } from '../support/serviceIndexer';

const PAYER = 1;

let service: TestService;
let chain: LocalChain;
let solana: LocalSolana;
let contracts: DevDepositContracts;
let usdc: Address;
let merchant: TestMerchant;
let indexer: ChainIndexer;
let attestation: AttestationServer;
/** What the first test paid and settled, for the second to carry back. */
let settled: { depositAddress: Address; amount: bigint } | undefined;

beforeAll(async () => {
  [chain, solana] = await Promise.all([createLocalChain(), startLocalSolana({ port: 0 })]);
  usdc = await chain.deployToken({ symbol: 'USDC', decimals: 6 });
  const inventory = await deployInventoryContracts(chain, usdc);
  contracts = inventory.depositContracts;
  attestation = await startDevAttestation({ local: chain, cctp: inventory.cctp }, () => createSolanaRpc(solana.rpcUrl).getSlot().send());
  await chain.mint(usdc, chain.account(PAYER).address, 10n ** 12n);
  const chainEnv = {
    ...solana.env,
    RPC_URLS_BASE_TESTNET: chain.rpcUrl,
    CHAIN_ID_BASE_TESTNET: String(chain.chainId),
    TOKEN_USDC_BASE_TESTNET: `${usdc}:6`,
    INDEXER_START_BLOCK_BASE_TESTNET: ((await chain.blockNumber()) + 1n).toString(),
  };
  service = await startTestService({
    env: {
      ...chainEnv,
      ...contracts.env,
      ...contracts.signerEnv,
      ...solana.signerEnv,
      SOLANA_PAYOUT_MEMO: 'false',
      SETTLEMENT_RPC_RECHECK_ABOVE_USDC: '0',
      CCTP_ATTESTATION_URL: attestation.url,
      TRANSFER_MINIMUM_USDC: '1',
    },
  });
  merchant = await createTestMerchant(service.db.sql, { supportedTokens: { USDC: ['base'] } });
  const config = loadChainsConfig(chainEnv);
  indexer = baseTestnetIndexer(service, config);
});

afterAll(async () => {
  await Promise.allSettled([attestation?.stop(), chain?.stop(), solana?.stop(), service?.stop()]);
});

async function drain(): Promise<void> {
  while (await indexer.tick());
}

async function usdcOnSolana(owner: SolanaAddress): Promise<bigint> {
  const rpc = createSolanaRpc(solana.rpcUrl);
  const account = await associatedTokenAccount(owner, solana.usdcMint);
  if (!(await rpc.getAccountInfo(account, { encoding: 'base64' }).send()).value) return 0n;
  return BigInt((await rpc.getTokenAccountBalance(account).send()).value.amount);
}

async function session(sessionId: string) {
  return (await call(service.baseUrl, 'GET', `/checkout/sessions/${sessionId}`, { apiKey: merchant.testKey })).body.data as Record<
    string,
    unknown
  >;
}

describe('a test-mode USDC payment on the local EVM chain', () => {
  it(
    'is paid to a forwarder address and settled from the Solana treasury: the merchant paid exactly, the ledger balanced',
    { timeout: 90_000 },
    async () => {
      const wallet = (await generateKeyPairSigner()).address;
      await setSettlementWallet(service.db.sql, merchant.merchant.id, wallet);
      const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
        apiKey: merchant.testKey,
        body: sessionRequest(merchant.merchant.id, { amount_usd: 25.5 }),
      });
      const sessionId = created.body.data?.session_id as string;
      const selected = await call(service.baseUrl, 'POST', '/checkout/sessions/select-payment', {
        apiKey: merchant.testKey,
        body: { session_id: sessionId, token: 'USDC', chain: 'base' },
      });
      expect(selected.status).toBe(200);
      const depositAddress = selected.body.data?.deposit_address as Address;
      const amount = BigInt(selected.body.data?.amount_base_units as string);
      expect(amount).toBe(25_500_000n);
      // The deposit factory's clone for the session, computed offline; nothing is deployed there before a sweep.
      expect(depositAddress).toBe(
        evmForwarderAddress({ factory: contracts.factory, implementation: contracts.forwarder }, depositSalt(sessionId)),
      );
      expect(await service.db.sql`select evm_scheme from deposit_addresses where session_id = ${sessionId}`).toEqual([
        { evm_scheme: 'forwarder' },
      ]);
      const treasuryBefore = await usdcOnSolana(solana.treasury.address);

      await drain();
      const paid = await chain.transfer(usdc, PAYER, depositAddress, amount);
      await chain.mine(CHAIN_FACTS.base.confirmations - 1);
      await drain();
      await vi.waitFor(async () => expect((await session(sessionId)).status).toBe('completed'), { timeout: 60_000, interval: 200 });

      const [settlement] = await service.db.sql<{ provider: string; reference: string; amount: string }[]>`
      select provider, reference, amount_usdc_base_units::text as amount from settlements where session_id = ${sessionId}`;
      expect(settlement).toMatchObject({ provider: 'solana-treasury', amount: '25500000' });
      const { value } = await createSolanaRpc(solana.rpcUrl)
        .getSignatureStatuses([settlement!.reference as Signature], { searchTransactionHistory: true })
        .send();
      expect(value[0]).toMatchObject({ err: null });
      expect(await usdcOnSolana(wallet)).toBe(amount);
      expect(await usdcOnSolana(solana.treasury.address)).toBe(treasuryBefore - amount);
      expect(
        await service.db
          .sql`select count(*)::int as n from payouts p join payments y on y.id = p.payment_id where y.session_id = ${sessionId}`,
      ).toEqual([{ n: 1 }]);

      // Every group balances; the base USDC at the deposit address is what cross_chain_clearing is owed in usdc:base,
      // and the treasury USDC it lent is what it is owed back in usdc:solana.
      expect(await service.db.sql`select group_id, asset from ledger_entries group by group_id, asset having sum(amount) <> 0`).toEqual([]);
      const balances = await service.db.sql<{ account: string; asset: string; balance: string }[]>`
      select account, asset, sum(amount)::text as balance from ledger_entries
      where mode = 'test' and asset like 'usdc:%' group by account, asset having sum(amount) <> 0 order by account, asset`;
      expect(balances).toEqual([
        { account: 'cross_chain_clearing', asset: 'usdc:base', balance: '-25500000' },
        { account: 'cross_chain_clearing', asset: 'usdc:solana', balance: '25500000' },
        { account: 'deposits:base', asset: 'usdc:base', balance: '25500000' },
        { account: 'treasury:solana', asset: 'usdc:solana', balance: '-25500000' },
      ]);
      expect(await service.db.sql`select reference from ledger_entries where account = 'deposits:base'`).toEqual([
        { reference: `deposit:base:${paid.hash}:${paid.logIndex}` },
      ]);
      settled = { depositAddress, amount };
    },
  );

  it(
    'then travels back to the treasury: swept into the collector, burned, attested and received on Solana',
    { timeout: 180_000 },
    async () => {
      if (!settled) throw new Error('the payment above did not settle');
      const { depositAddress, amount } = settled;
      const treasuryBefore = await usdcOnSolana(solana.treasury.address);
      const taskQueue = service.config.temporal.taskQueue;

      const swept = await whileMining(
        service.temporal.workflow.execute('sweepEvmDeposits', {
          taskQueue,
          workflowId: `sweep-${depositAddress}`,
          args: [{ chain: 'base', token: 'USDC', mode: 'test' }],
        }),
      );
      expect(swept).toEqual({ kind: 'swept', batches: 1, failed: 0, moved: amount.toString() });
      expect(await chain.tokenBalance(usdc, depositAddress)).toBe(0n);
      expect(await chain.tokenBalance(usdc, contracts.collector)).toBe(amount);
      expect(await collectorReconciliation()).toEqual({ balances: [{ ledger: amount, observed: amount }], differences: [] });

      const started = await service.temporal.workflow.execute('transferUsdc', {
        taskQueue,
        workflowId: `transfer-run-${depositAddress}`,
        args: [{ chain: 'base', mode: 'test' }],
      });
      expect(started).toMatchObject({ kind: 'started' });
      const { transferId } = started as { transferId: string };
      const transferred = await whileMining(service.temporal.workflow.getHandle(`transfer_${transferId}`).result());
      expect(transferred).toEqual({ kind: 'received', received: amount.toString() });
      expect(await chain.tokenBalance(usdc, contracts.collector)).toBe(0n);
      expect(await usdcOnSolana(solana.treasury.address)).toBe(treasuryBefore + amount);

      // The treasury has its USDC back: no USDC position is open in the ledger, on either chain.
      expect(await service.db.sql`select group_id, asset from ledger_entries group by group_id, asset having sum(amount) <> 0`).toEqual([]);
      const open = await service.db.sql`
      select account, asset, sum(amount)::text as balance from ledger_entries
      where mode = 'test' and asset like 'usdc:%' group by account, asset having sum(amount) <> 0 order by account, asset`;
      expect(open).toEqual([]);
      expect(await collectorReconciliation()).toEqual({ balances: [{ ledger: 0n, observed: 0n }], differences: [] });

      // USDC that reaches the collector outside a sweep is reported once it lies the chain's confirmations deep.
      await chain.mint(usdc, contracts.collector, 1_000_000n);
      expect((await collectorReconciliation()).differences).toEqual([]);
      await chain.mine(CHAIN_FACTS.base.confirmations - 1);
      expect((await collectorReconciliation()).differences).toEqual([1_000_000n]);
    },
  );
});

/** A reconciliation run over the treasury and the base collector, the collector's rows only. */
async function collectorReconciliation() {
  const view: TreasuryView = {
    mode: 'test',
    rpc: createSolanaRpc(solana.rpcUrl),
    treasury: solana.treasury.address,
    usdcMint: solana.usdcMint,
    collectors: [
      {
        chain: 'base',
        client: chain.publicClient,
        address: contracts.collector,
        tokens: [{ symbol: 'USDC', address: usdc }],
        confirmations: CHAIN_FACTS.base.confirmations,
      },
    ],
  };
  const run = await reconcileLedger(view, service.db.sql);
  const mine = (b: { account: string; asset: string }) => b.account === 'collector:base' && b.asset === 'usdc:base';
  return {
    balances: run.balances.filter(mine).map((b) => ({ ledger: b.ledger, observed: b.observed })),
    differences: run.differences.filter(mine).map((d) => d.difference),
  };
}

/** Mines a block every few milliseconds until `work` settles: the sweep and the burn wait for their depth. */
async function whileMining<T>(work: Promise<T>): Promise<T> {
  let done = false;
  const settledWork = work.finally(() => void (done = true));
  while (!done) {
    await chain.mine(4);
    await Promise.race([settledWork.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  return settledWork;
}
