// `transfer list [--stuck] | show` as operators run them (test/support/adminCli.ts), over transfers the
// route's repositories wrote, and the in-flight gauges the API's registry serves.
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEvmChainIntent } from '../../db/repositories/chainIntents';
import { postLedger } from '../../db/repositories/ledger';
import { insertTransfer, setTransferAttested, setTransferBurned, setTransferReceived } from '../../db/repositories/transfers';
import { burnIntentId, transferIdFor } from '../../domain/cctp/transfer';
import { transferBurned, transferReceived } from '../../domain/ledger/ledger';
import { registerTransferMetrics } from '../../observability/transferMetrics';
import { adminCli, expectOneLineError } from '../support/adminCli';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
const cli = adminCli(() => service);
const received = transferIdFor('admin-test-received');
const stuck = transferIdFor('admin-test-stuck');
const NONCE = `0x${'ab'.repeat(32)}`;

async function transfer(id: string, mode: 'test' | 'live', chain: 'base' | 'polygon', amount: bigint) {
  const sql = service.db.sql;
  await insertEvmChainIntent(sql, {
    id: burnIntentId(id),
    chain,
    mode,
    sender: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    call: { to: '0x90f79bf6eb2c4f870365e785982e1f101e93b906', data: '0x', value: '0' },
  });
  await insertTransfer(sql, { id, mode, sourceChain: chain, amount, maxFee: 100n, speed: 'standard', burnIntentId: burnIntentId(id) });
  await setTransferBurned(sql, id, `0x${'11'.repeat(32)}`);
  await postLedger(sql, transferBurned(id, mode, chain, amount));
}

beforeAll(async () => {
  service = await startTestService({ worker: false });
  const sql = service.db.sql;
  await transfer(received, 'test', 'base', 5_000_000n);
  await setTransferAttested(sql, received, { nonce: NONCE, message: '0x00', attestation: '0x00' });
  await setTransferReceived(sql, received, 4_999_900n);
  await postLedger(sql, transferReceived(received, 'test', 'base', { burned: 5_000_000n, received: 4_999_900n }));
  await transfer(stuck, 'live', 'polygon', 7_000_000n);
  await sql`update transfers set updated_at = now() - interval '2 hours', created_at = now() - interval '3 hours' where id = ${stuck}`;
});
afterAll(() => service?.stop());

type Listed = { id: string; stage: string; source_chain: string; amount_usdc: string; received_base_units: string | null };

describe('checkout-admin transfer', () => {
  it('list prints every transfer newest first; --stuck only those in flight whose stage has not moved', async () => {
    const all = (await cli.json(['transfer', 'list'])) as { transfers: Listed[] };
    // The stuck one was made three hours ago.
    expect(all.transfers.map((t) => [t.id, t.stage])).toEqual([
      [received, 'received'],
      [stuck, 'burned'],
    ]);
    const stuckOnes = (await cli.json(['transfer', 'list', '--stuck'])) as { transfers: Listed[] };
    expect(stuckOnes.transfers).toEqual([
      expect.objectContaining({ id: stuck, stage: 'burned', source_chain: 'polygon', amount_usdc: '7.000000' }),
    ]);
    const text = await cli.run(['transfer', 'list', '--stuck', '--older-than', '300']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.trim()).toBe('no transfer in flight has kept its stage for 300 minutes');
  });

  it('show prints the stages, the burn and receive intents, the nonce, the amounts and the ledger entries', async () => {
    const out = await cli.run(['transfer', 'show', received]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`transfer ${received} (workflow transfer_${received}), test, base → solana`);
    expect(out.stdout).toMatch(/amount\s+5\.000000 USDC, max fee 0\.000100, standard; received 4\.999900/);
    expect(out.stdout).toContain(`burn      ${burnIntentId(received)} prepared`);
    expect(out.stdout).toContain(`nonce     ${NONCE}`);
    expect(out.stdout).toContain(`${received}:received`);
    expect(out.stdout).toContain('bridge_fees');
    expectOneLineError(await cli.run(['transfer', 'show', 'tr_nope']), 2, /transfer id/);
    expectOneLineError(await cli.run(['transfer', 'show', transferIdFor('never')]), 1, /no transfer/);
  });

  it('the gauges count transfers in flight by stage and report the oldest one’s age', async () => {
    const registry = new Registry();
    registerTransferMetrics(registry, service.db.sql);
    const metrics = await registry.getMetricsAsJSON();
    const values = (name: string) => metrics.find((m) => m.name === name)?.values ?? [];
    const inFlight = values('checkout_transfers_in_flight').filter((v) => v.value > 0);
    expect(inFlight).toEqual([expect.objectContaining({ value: 1, labels: { mode: 'live', chain: 'polygon', stage: 'burned' } })]);
    const oldest = values('checkout_transfer_oldest_in_flight_seconds').find(
      (v) => v.labels.mode === 'live' && v.labels.chain === 'polygon',
    );
    expect(oldest?.value).toBeGreaterThanOrEqual(3 * 3600 - 5);
    expect(
      values('checkout_transfer_oldest_in_flight_seconds').find((v) => v.labels.mode === 'test' && v.labels.chain === 'base')?.value,
    ).toBe(0);
  });
});
