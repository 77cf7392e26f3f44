// Bad input at scale. fast-check sends 10,000 malformed requests across every operation of
// the OpenAPI document (api/openapi/operations.ts): junk in path parameters, query strings and headers,
// bodies of the wrong shape, of random bytes, deeply nested or oversized, with and without valid
// credentials. Every answer must be below 500, every JSON error in the contract's shape, and no business
// table may change. On failure fast-check prints the smallest request that broke it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../api/openapi/operations';
import { createTestMerchant, sessionRequest, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const RUNS = 10_000;
/** What a malformed request must never change (bookkeeping such as rate-limit counters may move). */
const BUSINESS_TABLES = [
  'merchants',
  'api_keys',
  'sessions',
  'transactions',
  'payments',
  'quotes',
  'deposits',
  'deposit_watches',
  'bank_accounts',
  'webhook_deliveries',
  'merchant_users',
];

let service: TestService;
let merchant: TestMerchant;
let sessionId: string;
let sessionToken: string;

beforeAll(async () => {
  service = await startTestService({
    worker: false,
    env: {
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_PER_SESSION_PER_MINUTE: '1000000',
      RATE_LIMIT_SESSION_TOKENS_PER_MERCHANT_PER_MINUTE: '1000000',
      AUTH_FAILURES_PER_IP_PER_MINUTE: '1000000',
    },
  });
  merchant = await createTestMerchant(service.db.sql);
  const created = await call(service.baseUrl, 'POST', '/checkout/sessions', {
    apiKey: merchant.testKey,
    body: sessionRequest(merchant.merchant.id),
  });
  sessionId = created.body.data?.session_id as string;
  sessionToken = new URL(created.body.data?.checkout_url_with_token as string).searchParams.get('token') ?? '';
});
afterAll(() => service?.stop());

async function snapshot(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of BUSINESS_TABLES) {
    const [row] = await service.db.sql<{ n: number }[]>`select count(*)::int as n from ${service.db.sql(table)}`;
    counts[table] = row!.n;
  }
  return counts;
}

const junkText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    '%00',
    '%',
    '%zz',
    '..',
    '%2e%2e%2f',
    'cs_',
    'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    'mer_x',
    '-1',
    '1e999',
    'NaN',
    'x'.repeat(3_000),
  ),
  fc.json(),
);

/** A body that cannot be a valid request to `path`: a random JSON value, random text, or its valid body broken on purpose. */
const malformedBody = (path: string) => {
  const validBody = () => validBodyFor(path);
  return fc.oneof(
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc
      .integer({ min: 17, max: 20_000 })
      .map((depth) => JSON.stringify(validBody()).replace(/}$/, `,"metadata":${'['.repeat(depth)}${']'.repeat(depth)}}`)),
    fc
      .record({ key: fc.string({ minLength: 1, maxLength: 20 }), value: fc.jsonValue() })
      .map(({ key, value }) => JSON.stringify({ ...validBody(), [`x_${key}`]: value })),
    fc
      .record({
        field: fc.constantFrom('amount_usd', 'merchant_id', 'transaction_id', 'webhook_url', 'token', 'chain', 'session_id'),
        value: fc.jsonValue(),
      })
      .map(({ field, value }) => JSON.stringify({ ...validBody(), [field]: typeof value === 'string' ? { not: value } : [value] })),
    // Valid but for text Postgres cannot store: a NUL or an unpaired surrogate somewhere in metadata.
    fc
      .record({ text: fc.string({ maxLength: 20 }), bad: fc.constantFrom('\\u0000', '\\ud800', '\\udfff'), inKey: fc.boolean() })
      .map(({ text, bad, inKey }) => {
        const escaped = JSON.stringify(text).slice(1, -1) + bad;
        return JSON.stringify(validBody()).replace(/}$/, inKey ? `,"metadata":{"${escaped}":"v"}}` : `,"metadata":{"note":"${escaped}"}}`);
      }),
    fc.constant(`{"amount_usd":${'9'.repeat(400)}}`),
  );
};

function validBodyFor(path: string): Record<string, unknown> {
  if (path === '/checkout/sessions') return sessionRequest(merchant.merchant.id, { transaction_id: 'fuzz-order' });
  if (path === '/checkout/sessions/select-payment') return { session_id: sessionId, token: 'USDC', chain: 'base' };
  if (path.endsWith('/cancel')) return { reason: 'fuzz' };
  if (path.endsWith('/simulate')) return { status: 'completed' };
  return {};
}

const credentials = fc.constantFrom<'apiKey' | 'sessionToken' | 'junkKey' | 'none'>('apiKey', 'sessionToken', 'junkKey', 'none');

/** An operation as the property needs it (and as a counterexample prints it). */
const ENDPOINTS = OPERATIONS.map((o) => ({ method: o.method, path: o.path, htmlErrors: o.htmlErrors ?? [] }));

interface MalformedRequest {
  operation: (typeof ENDPOINTS)[number];
  params: string[];
  query: Array<[string, string]>;
  credentials: 'apiKey' | 'sessionToken' | 'junkKey' | 'none';
  contentType: string;
  body: string | undefined;
  extraHeader: [string, string] | undefined;
}

/** Built once the session exists: its id and token are in the valid bodies and credentials. */
const malformedRequest = (): fc.Arbitrary<MalformedRequest> =>
  fc.constantFrom(...ENDPOINTS).chain((operation) =>
    fc.record({
      operation: fc.constant(operation),
      // Never the real session's id in a path: a well-formed cancel or simulate of it would be a valid request.
      params: fc.array(junkText, { minLength: 1, maxLength: 2 }),
      query: fc.array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom(
              'token',
              'chain',
              'amount_usd',
              'session_id',
              'by_ext_transaction_id',
              'status',
              'from',
              'to',
              'limit',
              'cursor',
            ),
            fc.string(),
          ),
          junkText,
        ),
        { maxLength: 4 },
      ),
      credentials,
      contentType: fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        '',
      ),
      body: fc.option(malformedBody(operation.path), { nil: undefined }),
      extraHeader: fc.option(
        fc.tuple(
          fc.constantFrom('idempotency-key', 'if-none-match', 'x-forwarded-for', 'x-service-user-type', 'accept'),
          fc.string({ unit: 'binary-ascii', maxLength: 300 }).map((v) => v.replace(/[^\x20-\x7e]/g, '')),
        ),
        { nil: undefined },
      ),
    }),
  );

function urlOf(request: MalformedRequest): string {
  let index = 0;
  const path = request.operation.path.replace(/:[a-z_]+/g, () => encodeURIComponent(request.params[index++ % request.params.length] ?? ''));
  const query = new URLSearchParams(request.query).toString();
  return `${service.baseUrl}${path}${query ? `?${query}` : ''}`;
}

function headersOf(request: MalformedRequest): Record<string, string> {
  const headers: Record<string, string> = { 'x-service-user-type': 'checkout' };
  if (request.credentials === 'apiKey') headers['x-api-key'] = merchant.testKey;
  if (request.credentials === 'junkKey') headers['x-api-key'] = 'mk_test_not-a-key';
  if (request.credentials === 'sessionToken') headers.authorization = `Bearer ${sessionToken}`;
  if (request.body !== undefined && request.contentType) headers['content-type'] = request.contentType;
  if (request.extraHeader) headers[request.extraHeader[0]] = request.extraHeader[1];
  return headers;
}

function isContractError(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const { error, details, ...rest } = body as Record<string, unknown>;
  if (typeof error !== 'string' || error.length === 0 || Object.keys(rest).length > 0) return false;
  if (details === undefined) return true;
  const errors = (details as { validation_errors?: unknown }).validation_errors;
  return Array.isArray(errors) && errors.every((e) => typeof e === 'string') && Object.keys(details as object).length === 1;
}

describe('malformed requests at scale', () => {
  it(`answers ${RUNS} malformed requests across every operation without a 5xx, in the contract's error shape, changing nothing`, async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(malformedRequest(), async (request) => {
        const method = request.body === undefined ? request.operation.method.toUpperCase() : 'POST';
        const response = await fetch(urlOf(request), {
          method,
          headers: headersOf(request),
          ...(request.body === undefined ? {} : { body: request.body }),
        });
        const text = await response.text();
        const where = `${method} ${request.operation.path} → ${response.status}: ${text.slice(0, 300)}`;
        if (response.status >= 500) throw new Error(`5xx: ${where}`);
        const html =
          request.operation.htmlErrors.includes(response.status) || (response.headers.get('content-type') ?? '').startsWith('text/html');
        if (response.status >= 400 && !html && !isContractError(JSON.parse(text)))
          throw new Error(`not the contract's error shape: ${where}`);
      }),
      { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
    );
    expect(await snapshot()).toEqual(before);
  }, 600_000);
});
