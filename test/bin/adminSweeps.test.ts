// `sweep list | run` as operators run them (test/support/adminCli.ts). list prints the sweeps the
// sweep code's repositories wrote, with what each moved; run starts sweepSolanaUsdc for one mode on the session
// queue, named after its schedule, and refuses a mode that is not one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEvmChainIntent } from '../../db/repositories/chainIntents';
import { insertHdSweeps, insertCollectorSweeps, setHdTopUpLanded, setCollectorSweepLanded } from '../../db/repositories/collectorSweeps';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { setSweepLanded, insertSweeps } from '../../db/repositories/solanaSweeps';
import { evmSweepScheduleId } from '../../domain/taskQueues';
import { ensureSweepSchedules } from '../../worker/sweepSchedules';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';
import { adminCli, expectOneLineError } from '../support/adminCli';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
const cli = adminCli(() => service);
let landed: string;
let pending: string;
let evmLanded: string;
const FACTORY = '0x00000000000000000000000000000000000000fa';

beforeAll(async () => {
  service = await startTestService({ worker: false });
  const account = (n: number) => ({
    owner: `Owner${n}1111111111111111111111111111111111`,
    derivationIndex: n,
    tokenAccount: `Token${n}1111111111111111111111111111111111`,
    balance: BigInt(n) * 1_000_000n,
    owed: BigInt(n) * 1_000_000n,
  });
  const sql = service.db.sql;
  [landed] = (await insertSweeps(sql, {
    mode: 'test',
    runKey: 'run-a',
    treasury: 'TestTreasury1111111111111111111111111111111',
    mint: 'Mint1111',
    batches: [[account(1), account(2)]],
  })) as [string];
  await sql`update chain_intents set status = 'confirmed', signature = 'sig-landed', wire_transaction = 'AAAA', last_valid_block_height = 10 where id = ${landed}`;
  await setSweepLanded(sql, landed, {
    status: 'confirmed',
    signature: 'sig-landed',
    usdc: 3_000_000n,
    feeLamports: 10_000n,
    rentLamports: 4_078_560n,
    swept: new Map([
      [account(1).tokenAccount, 1_000_000n],
      [account(2).tokenAccount, 2_000_000n],
    ]),
  });
  [pending] = (await insertSweeps(sql, {
    mode: 'live',
    runKey: 'run-b',
    treasury: 'LiveTreasury1111111111111111111111111111111',
    mint: 'Mint1111',
    batches: [[account(3)]],
  })) as [string];
  const { merchant } = await createTestMerchant(sql);
  const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
  await insertSessionRecord(sql, record, 'completed');
  const address = {
    address: '0x00000000000000000000000000000000000000a1',
    salt: `0x${'11'.repeat(32)}`,
    factory: FACTORY,
    sessionId: record.sessionId,
    balance: 5_000_000n,
  };
  [evmLanded] = (await insertCollectorSweeps(sql, {
    mode: 'test',
    chain: 'base',
    token: 'USDC',
    runKey: 'run-c',
    tokenAddress: '0x00000000000000000000000000000000000000c0',
    batches: [{ factory: FACTORY, addresses: [address] }],
    insertIntent: (q, id) =>
      insertEvmChainIntent(q, {
        id,
        chain: 'base',
        mode: 'test',
        sender: '0x00000000000000000000000000000000000000e0',
        call: { to: FACTORY, data: '0x', value: '0' },
      }),
  })) as [string];
  await setCollectorSweepLanded(sql, evmLanded, {
    status: 'finalized',
    txHash: '0xlanded',
    blockNumber: 7n,
    lastLogIndex: 2,
    moved: 5_000_000n,
    gasWei: 21_000n,
    perAddress: new Map([[address.address, 5_000_000n]]),
  });
});
afterAll(() => service?.stop());

type Listed = {
  id: string;
  mode: string;
  status: string;
  usdc_swept: string | null;
  fee_lamports: string | null;
  rent_lamports: string | null;
  accounts: Array<{ owner: string; swept_base_units: string | null }>;
};

describe('checkout-admin sweep', () => {
  it('list prints each sweep with what it moved, newest first, and --mode keeps one mode', async () => {
    const out = (await cli.json(['sweep', 'list'])) as {
      sweeps: Listed[];
      collector_sweeps: Array<{
        id: string;
        chain: string;
        status: string;
        moved_base_units: string;
        gas_wei: string;
        addresses: Array<{ swept_base_units: string }>;
      }>;
    };
    expect(out.sweeps.map((s) => s.id)).toEqual([pending, landed]);
    expect(out.collector_sweeps).toEqual([
      expect.objectContaining({
        id: evmLanded,
        chain: 'base',
        status: 'finalized',
        moved_base_units: '5000000',
        gas_wei: '21000',
        addresses: [expect.objectContaining({ swept_base_units: '5000000' })],
      }),
    ]);
    expect(out.sweeps[1]).toMatchObject({
      mode: 'test',
      status: 'confirmed',
      usdc_swept: '3.000000',
      fee_lamports: '10000',
      rent_lamports: '4078560',
    });
    expect(out.sweeps[1]!.accounts.map((a) => a.swept_base_units)).toEqual(['1000000', '2000000']);
    expect(out.sweeps[0]).toMatchObject({ mode: 'live', status: 'pending', usdc_swept: null });

    const text = await cli.run(['sweep', 'list', '--mode', 'test']);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SWEEP\s+MODE\s+STATUS\s+ACCOUNTS\s+USDC\s+FEE\s+RENT\s+CREATED\s+SIGNATURE$/);
    expect(lines).toHaveLength(5);
    expect(lines[3]).toMatch(/^FORWARDER SWEEP\s+MODE\s+TOKEN\s+STATUS\s+ADDRESSES\s+MOVED\s+FEE\s+CREATED\s+TX$/);
    expect(lines[4]).toMatch(new RegExp(`^${evmLanded}\\s+test\\s+USDC\\s+finalized\\s+1\\s+5000000\\s+21000\\s+.*0xlanded$`));
    expect((await cli.json(['sweep', 'list', '--mode', 'live'])) as { collector_sweeps: unknown[] }).toMatchObject({
      collector_sweeps: [],
    });
    expect(lines[1]).toMatch(new RegExp(`^${landed}\\s+test\\s+confirmed\\s+2\\s+3\\.000000\\s+10000\\s+4078560\\s+.*sig-landed$`));
  });

  it("list shows an HD address's sweep with its kind, its collector and the relayer's top-up", async () => {
    const sql = service.db.sql;
    const { merchant } = await createTestMerchant(sql);
    const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(sql, record, 'completed');
    const collector = '0x00000000000000000000000000000000000000cc';
    const [hd] = (await insertHdSweeps(sql, {
      mode: 'test',
      chain: 'base',
      token: 'USDC',
      runKey: 'run-d',
      tokenAddress: '0x00000000000000000000000000000000000000c0',
      collector,
      firstBatch: 0,
      addresses: [
        {
          address: '0x00000000000000000000000000000000000000a2',
          sessionId: record.sessionId,
          derivationIndex: 7,
          owed: 2_000_000n,
          balance: 2_000_000n,
        },
      ],
      insertIntent: (q, id, hd) =>
        insertEvmChainIntent(q, {
          id,
          chain: 'base',
          mode: 'test',
          sender: hd.address,
          call: { to: '0x00000000000000000000000000000000000000c0', data: '0x', value: '0' },
        }),
    })) as [string];
    await setHdTopUpLanded(sql, hd, 1, { sentWei: 90_000n, gasWei: 21_000n });
    const out = (await cli.json(['sweep', 'list', '--mode', 'test'])) as { collector_sweeps: Array<Record<string, unknown>> };
    expect(out.collector_sweeps[0]).toMatchObject({
      id: hd,
      kind: 'hd',
      factory: null,
      collector,
      status: 'pending',
      topup_rounds: 1,
      topup_wei: '90000',
      topup_gas_wei: '21000',
    });
    expect(out.collector_sweeps[1]).toMatchObject({ id: evmLanded, kind: 'forwarder', factory: FACTORY, collector: null, topup_wei: null });
    expect(hd).toMatch(/^sweep-hd:base:/);
  });

  it("run starts the mode's sweep workflow now, on the session queue, named after its schedule", async () => {
    const out = (await cli.json(['sweep', 'run', '--mode', 'live'])) as { workflow_id: string; started: boolean };
    expect(out.workflow_id).toMatch(/^sweep_solana_usdc_live-manual-[0-9A-Z]{26}$/);
    const description = await service.temporal.workflow.getHandle(out.workflow_id).describe();
    expect(description).toMatchObject({ type: 'sweepSolanaUsdc', taskQueue: service.config.temporal.taskQueue });
    await service.temporal.workflow.getHandle(out.workflow_id).terminate('test over');
  });

  it("now triggers the chain's forwarder sweep schedule, and refuses one the worker has not created", async () => {
    // A scope no other test file's schedule has: they share the Temporal server, and this one triggers and deletes it.
    const scope = { chain: 'optimism', token: 'USDC', mode: 'test' } as const;
    await ensureSweepSchedules(service.temporal, {
      taskQueue: service.config.temporal.taskQueue,
      intervalSeconds: 3600,
      evmScopes: [scope],
    });
    const schedule = service.temporal.schedule.getHandle(evmSweepScheduleId(scope));
    try {
      const out = await cli.json(['sweep', 'now', '--chain', 'optimism', '--token', 'usdc', '--mode', 'test']);
      expect(out).toEqual({ schedule_id: 'sweep_evm_optimism_usdc_test', triggered: true });
      let actions = (await schedule.describe()).info.recentActions;
      while (actions.length === 0) actions = (await schedule.describe()).info.recentActions;
      const started = actions[0]!.action.workflow.workflowId;
      expect(started).toMatch(/^sweep_evm_optimism_usdc_test-/);
      expect(await service.temporal.workflow.getHandle(started).describe()).toMatchObject({ type: 'sweepEvmDeposits' });
      await service.temporal.workflow.getHandle(started).terminate('test over');
    } finally {
      await schedule.delete();
    }
    expectOneLineError(
      await cli.run(['sweep', 'now', '--chain', 'ethereum', '--token', 'USDT', '--mode', 'live']),
      1,
      /no schedule sweep_evm_ethereum_usdt_live/,
    );
    expectOneLineError(
      await cli.run(['sweep', 'now', '--chain', 'tron', '--token', 'USDT', '--mode', 'live']),
      1,
      /no schedule sweep_tron_usdt_live: .*TRON_DEPOSIT_FACTORY_\*/,
    );
    expectOneLineError(await cli.run(['sweep', 'now', '--chain', 'solana', '--token', 'USDC', '--mode', 'test']), 2, /--chain/);
  });

  it('run refuses a missing or unknown mode and starts nothing', async () => {
    expectOneLineError(await cli.run(['sweep', 'run']), 2, /--mode/);
    expectOneLineError(await cli.run(['sweep', 'run', '--mode', 'prod']), 2, /--mode/);
  });

  it('failures lists the forwarder addresses whose sweep reverts; clear-failure forgets one, audited, and refuses one not counted', async () => {
    const blocked = '0x00000000000000000000000000000000000000b1';
    await service.db.sql`insert into sweep_address_failures (mode, chain, token, address, failures, last_error)
                         values ('test', 'base', 'USDC', ${blocked}, 3, 'TransferFailed(token)')`;
    expect(await cli.json(['sweep', 'failures'])).toEqual({
      failures: [
        expect.objectContaining({
          mode: 'test',
          chain: 'base',
          token: 'USDC',
          address: blocked,
          failures: 3,
          last_error: 'TransferFailed(token)',
        }),
      ],
    });
    const clear = [
      'sweep',
      'clear-failure',
      '--chain',
      'base',
      '--token',
      'usdc',
      '--mode',
      'test',
      '--address',
      blocked.toUpperCase().replace('0X', '0x'),
    ];
    expect(await cli.json(clear)).toMatchObject({ address: blocked, cleared: true });
    expect(await service.db.sql`select 1 from sweep_address_failures where address = ${blocked}`).toHaveLength(0);
    expect(
      await service.db.sql`select outcome from admin_audit_events where action = 'sweep.clear-failure' and ${blocked} = any(targets)`,
    ).toEqual([{ outcome: 'ok' }]);
    expectOneLineError(await cli.run(clear), 1, /no failures counted/);
  });
});
