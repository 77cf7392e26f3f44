// Issue 13 item 6: `sweep list | run` as operators run them (a real child process). list prints the sweeps the
// sweep code's repositories wrote, with what each moved; run starts sweepSolanaUsdc for one mode on the session
// queue, named after its schedule, and refuses a mode that is not one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSweepLanded, insertSweeps } from '../../db/repositories/solanaSweeps';
import { adminCli, expectOneLineError } from '../support/adminCli';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
const cli = adminCli(() => service);
let landed: string;
let pending: string;

beforeAll(async () => {
  service = await startTestService({ worker: false });
  const account = (n: number) => ({ owner: `Owner${n}1111111111111111111111111111111111`, derivationIndex: n, tokenAccount: `Token${n}1111111111111111111111111111111111`, balance: BigInt(n) * 1_000_000n, owed: BigInt(n) * 1_000_000n });
  const sql = service.db.sql;
  [landed] = (await insertSweeps(sql, { mode: 'test', runKey: 'run-a', treasury: 'TestTreasury1111111111111111111111111111111', mint: 'Mint1111', batches: [[account(1), account(2)]] })) as [string];
  await sql`update chain_intents set status = 'confirmed', signature = 'sig-landed', wire_transaction = 'AAAA', last_valid_block_height = 10 where id = ${landed}`;
  await setSweepLanded(sql, landed, { status: 'confirmed', signature: 'sig-landed', usdc: 3_000_000n, feeLamports: 10_000n, rentLamports: 4_078_560n, swept: new Map([[account(1).tokenAccount, 1_000_000n], [account(2).tokenAccount, 2_000_000n]]) });
  [pending] = (await insertSweeps(sql, { mode: 'live', runKey: 'run-b', treasury: 'LiveTreasury1111111111111111111111111111111', mint: 'Mint1111', batches: [[account(3)]] })) as [string];
});
afterAll(() => service?.stop());

type Listed = { id: string; mode: string; status: string; usdc_swept: string | null; fee_lamports: string | null; rent_lamports: string | null; accounts: Array<{ owner: string; swept_base_units: string | null }> };

describe('checkout-admin sweep', () => {
  it('list prints each sweep with what it moved, newest first, and --mode keeps one mode', async () => {
    const out = (await cli.json(['sweep', 'list'])) as { sweeps: Listed[] };
    expect(out.sweeps.map((s) => s.id)).toEqual([pending, landed]);
    expect(out.sweeps[1]).toMatchObject({ mode: 'test', status: 'confirmed', usdc_swept: '3.000000', fee_lamports: '10000', rent_lamports: '4078560' });
    expect(out.sweeps[1]!.accounts.map((a) => a.swept_base_units)).toEqual(['1000000', '2000000']);
    expect(out.sweeps[0]).toMatchObject({ mode: 'live', status: 'pending', usdc_swept: null });

    const text = await cli.run(['sweep', 'list', '--mode', 'test']);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SWEEP\s+MODE\s+STATUS\s+ACCOUNTS\s+USDC\s+FEE\s+RENT\s+CREATED\s+SIGNATURE$/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${landed}\\s+test\\s+confirmed\\s+2\\s+3\\.000000\\s+10000\\s+4078560\\s+.*sig-landed$`));
  });

  it('run starts the mode\'s sweep workflow now, on the session queue, named after its schedule', async () => {
    const out = (await cli.json(['sweep', 'run', '--mode', 'live'])) as { workflow_id: string; started: boolean };
    expect(out.workflow_id).toMatch(/^sweep_solana_usdc_live-manual-[0-9A-Z]{26}$/);
    const description = await service.temporal.workflow.getHandle(out.workflow_id).describe();
    expect(description).toMatchObject({ type: 'sweepSolanaUsdc', taskQueue: service.config.temporal.taskQueue });
    await service.temporal.workflow.getHandle(out.workflow_id).terminate('test over');
  });

  it('run refuses a missing or unknown mode and starts nothing', async () => {
    expectOneLineError(await cli.run(['sweep', 'run']), 2, /--mode/);
    expectOneLineError(await cli.run(['sweep', 'run', '--mode', 'prod']), 2, /--mode/);
  });
});
