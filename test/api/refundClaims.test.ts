// The customer's refund claim endpoints (docs/refunds.md#claim-flow): the page, its state, and the claim with every
// refusal, each of which leaves the refund row as it was.
import { ed25519 } from '@noble/curves/ed25519.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRefund } from '../../db/repositories/refunds';
import { refundClaimMessage } from '../../domain/refunds/claimMessage';
import { refundWorkflowId } from '../../domain/refunds/refundPayment';
import { issueRefundClaimToken } from '../../domain/refunds/refundClaimToken';
import { newRefundId } from '../../domain/wire/ids';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { expectDocumentedResponse } from '../support/openApiCheck';
import { creditedDeposit, pendingRefund, solanaWallet } from '../support/refundClaims';
import { startOfFreshWindow } from '../support/rateLimitWindow';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let shop: TestMerchant;
let secret: string;

const WALLET = solanaWallet(7);
// Above what any one test below spends on its own session.
const SESSION_LIMIT = 10;

beforeAll(async () => {
  service = await startTestService({ worker: false, env: { RATE_LIMIT_PER_SESSION_PER_MINUTE: String(SESSION_LIMIT) } });
  shop = await createTestMerchant(service.db.sql);
  secret = service.config.sessionTokenSecret as string;
});
afterAll(() => service?.stop());

async function newSession(): Promise<{ sessionId: string; merchantId: string }> {
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: shop.testKey,
    body: sessionRequest(shop.merchant.id),
  });
  expect(created.status).toBe(201);
  return { sessionId: created.body.data?.session_id as string, merchantId: shop.merchant.id };
}

const claimBody = (addressText: string, extra: Record<string, unknown> = {}) => ({
  destination: { chain: 'solana', token: 'USDC', address: addressText },
  acknowledged_exchange_warning: true,
  ...extra,
});

const claim = (token: string, body: unknown) => call(service.baseUrl, 'POST', `/refunds/${token}/claim`, { headers: {}, body });
const state = (token: string) => call(service.baseUrl, 'GET', `/refunds/${token}/state`, { headers: {} });

/** A claim refused: the error's text, and nothing on the row changed. */
async function expectRefused(refundId: string, token: string, body: unknown, status: number): Promise<string> {
  const before = await findRefund(service.db.sql, refundId);
  const answer = await claim(token, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(await findRefund(service.db.sql, refundId)).toEqual(before);
  return [answer.body.error, ...(answer.body.details?.validation_errors ?? [])].join(' | ');
}

async function page(path: string): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${service.baseUrl}${path}`);
  const observed = { status: response.status, headers: response.headers, text: await response.text() };
  await expectDocumentedResponse(service.baseUrl, 'GET', path, observed);
  return observed;
}

describe('GET /refunds/{token}', () => {
  it('serves the claim page for a token this service issued, uncached, under the page CSP', async () => {
    const { token } = await pendingRefund(service.db.sql, await newSession(), secret);
    const served = await page(`/refunds/${token}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('no-store');
    expect(served.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(served.headers.get('referrer-policy')).toBe('no-referrer');
    const script = /src="(\/refunds\/assets\/refund\.js\?v=[0-9a-f]+)"/.exec(served.text)?.[1];
    expect(script).toBeDefined();
    expect((await page(script as string)).status).toBe(200);
  });

  it('answers a forged or malformed token with the "not found" page', async () => {
    const [, mac] = issueRefundClaimToken(newRefundId(), secret).split('.');
    for (const token of [`${newRefundId()}.${mac}`, 'nonsense']) {
      const served = await page(`/refunds/${token}`);
      expect(served.status).toBe(404);
      expect(served.text).toContain('Refund not found');
      expect(served.text).not.toContain('refund.js');
    }
  });
});

describe('GET /refunds/{token}/state', () => {
  it('shows the amount, how it arrived, the routes, the sender and the expiry', async () => {
    const session = await newSession();
    await creditedDeposit(service.db.sql, session.sessionId, 'base', '0x1111111111111111111111111111111111111111', 1);
    const { refund, token } = await pendingRefund(service.db.sql, session, secret);
    const answer = await state(token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body.data).toEqual({
      refund_id: refund.id,
      status: 'pending_claim',
      amount_usd: 12.34,
      token: 'USDC',
      chain: 'solana',
      routes: [{ chain: 'solana', token: 'USDC' }],
      require_sender_proof: false,
      sender: { chain: 'base', address: '0x1111111111111111111111111111111111111111' },
      destination: null,
      expires_at: refund.expiresAt.toISOString(),
      transaction_hash: null,
      explorer_url: null,
    });
  });

  it('reads a refund past its claim expiry as expired', async () => {
    const { token } = await pendingRefund(service.db.sql, await newSession(), secret, { expiresAt: new Date(Date.now() - 1000) });
    expect((await state(token)).body.data?.status).toBe('expired');
  });

  it('answers a forged token 404, as for no refund', async () => {
    const [, mac] = issueRefundClaimToken(newRefundId(), secret).split('.');
    const answer = await state(`${newRefundId()}.${mac}`);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('Refund not found');
    expect((await claim(`${newRefundId()}.${mac}`, claimBody(WALLET.address))).status).toBe(404);
  });
});

describe('POST /refunds/{token}/claim', () => {
  it('claims the refund to a Solana wallet, and tells its workflow', async () => {
    const { refund, token } = await pendingRefund(service.db.sql, await newSession(), secret);
    // A stand-in for the refund workflow, on a queue no worker polls: it only records the signals it is sent.
    const handle = await service.temporal.workflow.start('refund', {
      taskQueue: 'refund-claims-test',
      workflowId: refundWorkflowId(refund.id),
    });
    const answer = await claim(token, claimBody(` ${WALLET.address} `));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'claimed', destination: { chain: 'solana', token: 'USDC', address: WALLET.address } });
    const row = await findRefund(service.db.sql, refund.id);
    expect(row).toMatchObject({ status: 'claimed', destination: { chain: 'solana', token: 'USDC', address: WALLET.address } });
    expect(row?.claimedAt).toBeInstanceOf(Date);
    const history = await handle.fetchHistory();
    const signals = (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes);
    expect(signals.map((e) => e.workflowExecutionSignaledEventAttributes?.signalName)).toEqual(['refundClaimed']);
    await handle.terminate();
  });

  it('answers a repeated claim of the same destination as the first, and refuses another destination', async () => {
    const { refund, token } = await pendingRefund(service.db.sql, await newSession(), secret);
    expect((await claim(token, claimBody(WALLET.address))).status).toBe(200);
    const again = await claim(token, claimBody(WALLET.address));
    expect(again.status).toBe(200);
    expect(again.body.data?.status).toBe('claimed');
    const error = await expectRefused(refund.id, token, claimBody(solanaWallet(8).address), 409);
    expect(error).toBe('This refund was already claimed for another address');
  });

  it('refuses a token account: it is not the wallet', async () => {
    const { refund, token } = await pendingRefund(service.db.sql, await newSession(), secret);
    const [ata] = await findAssociatedTokenPda({
      owner: address(WALLET.address),
      mint: address('4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU'),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    expect(await expectRefused(refund.id, token, claimBody(ata), 400)).toContain(
      'is off the ed25519 curve: a token account or program address, not a wallet',
    );
  });

  it('refuses a chain no refund route pays, a malformed address and a missing confirmation', async () => {
    const { refund, token } = await pendingRefund(service.db.sql, await newSession(), secret);
    const evm = { chain: 'base', token: 'USDC', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' };
    expect(await expectRefused(refund.id, token, { destination: evm, acknowledged_exchange_warning: true }, 400)).toContain(
      'refunds are paid only as USDC on solana, not USDC on base',
    );
    expect(await expectRefused(refund.id, token, claimBody('not an address'), 400)).toContain('is not a Solana address');
    expect(await expectRefused(refund.id, token, { destination: claimBody(WALLET.address).destination }, 400)).toContain(
      'Confirm that the address is a wallet you control',
    );
  });

  it("refuses one of the service's own deposit addresses", async () => {
    const session = await newSession();
    const own = solanaWallet(9).address;
    await service.db.sql`
      insert into deposit_addresses (session_id, derivation_index, evm_address, tron_address, solana_address, mode)
      values (${session.sessionId}, 987654, ${`0x${'12'.repeat(20)}`}, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', ${own}, 'test')
      on conflict (session_id) do update set solana_address = excluded.solana_address`;
    const { refund, token } = await pendingRefund(service.db.sql, session, secret);
    expect(await expectRefused(refund.id, token, claimBody(own), 400)).toContain('deposit address of this checkout');
  });

  it('refuses a Solana deposit address the signer derived ahead, before any session was given it', async () => {
    const pooled = solanaWallet(10).address;
    await service.db.sql`insert into solana_deposit_address_pool (mode, derivation_index, address) values ('live', 999998, ${pooled})`;
    const { refund, token } = await pendingRefund(service.db.sql, await newSession(), secret);
    expect(await expectRefused(refund.id, token, claimBody(pooled), 400)).toContain('deposit address of this checkout');
  });

  it('refuses an expired refund 410 and a cancelled one 409', async () => {
    const expired = await pendingRefund(service.db.sql, await newSession(), secret, { expiresAt: new Date(Date.now() - 1000) });
    expect(await expectRefused(expired.refund.id, expired.token, claimBody(WALLET.address), 410)).toContain('expired');
    const cancelled = await pendingRefund(service.db.sql, await newSession(), secret);
    await service.db.sql`update refunds set status = 'cancelled' where id = ${cancelled.refund.id}`;
    expect(await expectRefused(cancelled.refund.id, cancelled.token, claimBody(WALLET.address), 409)).toBe(
      'The merchant cancelled this refund',
    );
  });

  it('asks for the paying wallet’s signature of the claim message when the merchant requires it', async () => {
    const session = await newSession();
    const payer = solanaWallet(11);
    await creditedDeposit(service.db.sql, session.sessionId, 'solana', payer.address, 2);
    const { refund, token } = await pendingRefund(service.db.sql, session, secret, { requireSenderProof: true });
    expect((await state(token)).body.data).toMatchObject({
      require_sender_proof: true,
      sender: { chain: 'solana', address: payer.address },
    });

    expect(await expectRefused(refund.id, token, claimBody(WALLET.address), 400)).toContain(
      'A signature by the wallet that paid is required',
    );
    const destination = { chain: 'solana', token: 'USDC', address: WALLET.address } as const;
    const message = refundClaimMessage(refund.id, destination);
    const byOther = base58.encode(ed25519.sign(utf8ToBytes(message), solanaWallet(12).secret));
    expect(await expectRefused(refund.id, token, claimBody(WALLET.address, { sender_proof: { signature: byOther } }), 400)).toContain(
      `Not a signature of the claim message by ${payer.address}`,
    );

    const signature = base58.encode(ed25519.sign(utf8ToBytes(message), payer.secret));
    const answer = await claim(token, claimBody(WALLET.address, { sender_proof: { signature } }));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await findRefund(service.db.sql, refund.id))?.senderProof).toEqual({
      chain: 'solana',
      address: payer.address,
      message,
      signature,
    });
  });
});

describe('rate limiting', () => {
  it("counts claim-link calls against the refund's checkout session", async () => {
    await startOfFreshWindow(service.db.sql);
    const { token } = await pendingRefund(service.db.sql, await newSession(), secret);
    for (let i = 1; i <= SESSION_LIMIT; i += 1) {
      const answer = await state(token);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-remaining')).toBe(String(SESSION_LIMIT - i));
    }
    const refused = await claim(token, claimBody(WALLET.address));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Rate limit exceeded' });
  });
});
