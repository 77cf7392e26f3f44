// /openapi.json and /docs: generated from the validation schemas, covering every route the router has.
import type Router from '@koa/router';
import { Validator } from '@seriousme/openapi-schema-validator';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app';
import type { ApiDeps } from '../../api/context';
import { OPERATIONS } from '../../api/openapi/operations';
import { openApiPath, type OpenApiDocument } from '../../api/openapi/document';
import { CreateSessionRequest } from '../../domain/wire/session';
import { call } from '../support/http';
import { expectDocumentedResponse } from '../support/openApiCheck';
import { startTestService, type TestService } from '../support/service';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ worker: false });
});
afterAll(() => service?.stop());

/** Method + path of every route on the app's router (HEAD is Koa's automatic twin of GET). */
function registeredRoutes(): string[] {
  const deps: ApiDeps = {
    config: service.config,
    sql: service.db.sql,
    temporal: service.temporal,
    logger: pino({ level: 'silent' }),
    registry: service.registry,
    offer: service.offer,
  };
  const app = createApp(deps);
  const dispatch = app.middleware.find((m) => (m as { router?: Router }).router) as { router: Router } | undefined;
  if (!dispatch) throw new Error('router middleware not found');
  return dispatch.router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== 'HEAD').map((method) => `${method.toLowerCase()} ${openApiPath(String(layer.path))}`),
  );
}

async function fetchDocument(): Promise<OpenApiDocument> {
  const response = await fetch(`${service.baseUrl}/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as OpenApiDocument;
}

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document served without credentials', async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'http://checkout.test' }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'sessionBearer', 'sessionQuery', 'userType']);
  });

  it('documents every route registered on the router, and nothing else', async () => {
    const doc = await fetchDocument();
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    const routes = registeredRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(12);
    expect([...documented].sort()).toEqual([...new Set(routes)].sort());
    expect(OPERATIONS).toHaveLength(documented.length);
  });

  it('uses the validation schemas themselves for bodies and parameters', async () => {
    const doc = await fetchDocument();
    const create = doc.paths['/checkout/sessions']?.post;
    const body = create?.requestBody?.content['application/json'].schema as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(Object.keys(body.properties)).toEqual(Object.keys(CreateSessionRequest.shape));
    expect(body.required).toEqual(['merchant_id', 'transaction_id', 'amount_usd', 'webhook_url']);
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.amount_usd).toMatchObject({ type: 'number', exclusiveMinimum: 0, maximum: 99999999.99, multipleOf: 0.01 });

    const quote = doc.paths['/checkout/quote']?.get;
    expect(quote?.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['amount_usd', 'query', true],
      ['token', 'query', true],
      ['chain', 'query', true],
    ]);
    const simulate = doc.paths['/checkout/sessions/{session_id}/simulate']?.post;
    expect(simulate?.parameters).toEqual([expect.objectContaining({ name: 'session_id', in: 'path', required: true })]);
    expect(simulate?.responses['403']).toBeDefined();
  });

  it('describes the credentials of each endpoint as docs/api.md#authentication does', async () => {
    const doc = await fetchDocument();
    const security = (path: string, method: 'get' | 'post') => doc.paths[path]?.[method]?.security;
    expect(security('/checkout/tokens', 'get')).toEqual([{ apiKey: [], userType: [] }]);
    expect(security('/checkout/sessions/bank-details', 'get')).toEqual([
      { sessionBearer: [], userType: [] },
      { sessionQuery: [], userType: [] },
    ]);
    expect(security('/checkout/sessions/select-payment', 'post')).toHaveLength(3);
    expect(security('/openapi.json', 'get')).toEqual([]);
  });

  it('wraps success payloads in data and points errors at the error schema', async () => {
    const doc = await fetchDocument();
    const tokens = doc.paths['/checkout/tokens']?.get;
    const success = tokens?.responses['200']?.content?.['application/json']?.schema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(success.required).toEqual(['data']);
    expect(tokens?.responses['400']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(doc.components.schemas.Error).toMatchObject({ required: ['error'] });
  });
});

describe('GET /openapi.json for client generators and fuzzers', () => {
  it('is valid against the OpenAPI 3.1 meta-schema', async () => {
    const validator = new Validator();
    const result = await validator.validate((await fetchDocument()) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('declares every path parameter of every path, with the session id pattern the router matches', async () => {
    const doc = await fetchDocument();
    for (const [path, methods] of Object.entries(doc.paths)) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(methods)) {
        expect(
          op.parameters.filter((p) => p.in === 'path').map((p) => p.name),
          `${method} ${path}`,
        ).toEqual(inPath);
      }
    }
    const page = doc.paths['/checkout/{session_id}']?.get;
    expect(page?.parameters).toEqual([
      expect.objectContaining({
        name: 'session_id',
        in: 'path',
        required: true,
        schema: expect.objectContaining({ pattern: '^cs_[0-9A-HJKMNP-TV-Z]{26}$' }),
      }),
    ]);
  });

  it('documents the HTML answers as text/html', async () => {
    const doc = await fetchDocument();
    const page = doc.paths['/checkout/{session_id}']?.get;
    expect(Object.keys(page?.responses['200']?.content ?? {})).toEqual(['text/html']);
    expect(Object.keys(page?.responses['404']?.content ?? {})).toEqual(['text/html']);
    expect(Object.keys(doc.paths['/docs']?.get?.responses['200']?.content ?? {})).toEqual(['text/html']);
  });

  it('makes the HTTP helper refuse a response the document does not describe', async () => {
    const text = JSON.stringify({ data: { tokens: [{ symbol: 'DAI' }] } });
    const headers = new Headers({ 'content-type': 'application/json' });
    await expect(expectDocumentedResponse(service.baseUrl, 'GET', '/checkout/tokens', { status: 200, headers, text })).rejects.toThrow(
      /GET \/checkout\/tokens → 200/,
    );
    await expect(
      expectDocumentedResponse(service.baseUrl, 'GET', '/checkout/tokens', { status: 418, headers, text: '{"error":"teapot"}' }),
    ).rejects.toThrow(/status not documented/);
    await expect(
      expectDocumentedResponse(service.baseUrl, 'POST', '/checkout/tokens', {
        status: 405,
        headers,
        text: '{"error":"Method not allowed"}',
      }),
    ).rejects.toThrow(/the Allow header/);
  });
});

describe('405 Method not allowed', () => {
  it.each([
    ['POST', '/checkout/tokens', ['GET', 'HEAD']],
    ['DELETE', '/checkout/sessions', ['GET', 'HEAD', 'POST']],
    ['PUT', '/checkout/sessions/cs_01ARZ3NDEKTSV4RRFFQ69G5FAV', ['GET', 'HEAD']],
    ['GET', '/checkout/sessions/cs_01ARZ3NDEKTSV4RRFFQ69G5FAV/cancel', ['POST']],
  ])('%s %s answers 405 with Allow: %j', async (method, path, allowed) => {
    const response = await call(service.baseUrl, method, path);
    expect(response).toMatchObject({ status: 405, body: { error: 'Method not allowed' } });
    expect((response.headers.get('allow') ?? '').split(', ').sort()).toEqual(allowed);
  });
});

describe('GET /docs', () => {
  it('renders a self-contained HTML page listing every operation', async () => {
    const response = await fetch(`${service.baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/);
    for (const op of OPERATIONS) expect(html, op.path).toContain(`<code>${openApiPath(op.path)}</code>`);
    expect(html).not.toMatch(/<script|<link|src="http|href="http/i);
  });

  it('needs no credentials, like the document', async () => {
    const response = await call(service.baseUrl, 'GET', '/openapi.json', { headers: {} });
    expect(response.status).toBe(200);
  });
});
