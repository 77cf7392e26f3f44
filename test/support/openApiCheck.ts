// Every response the HTTP tests receive is held to the service's own /openapi.json: the status must be one
// the operation documents, the content type one it lists for that status, a JSON body must match its schema,
// and a 405 must carry Allow. A response to a path no operation takes must still be a 4xx in the error shape
// (or the hosted page's HTML "not found").
//
// The tools, both maintained and built for OpenAPI 3.1: @seriousme/openapi-schema-validator checks the
// document itself against the official OpenAPI 3.1 meta-schema and resolves its $refs; Ajv's 2020-12 build
// (3.1's schema dialect is JSON Schema 2020-12) with ajv-formats validates bodies and path parameters.
// openapi-backend and openapi-response-validator were passed over: they read schemas with OpenAPI 3.0
// semantics (draft-04 style exclusiveMinimum, `nullable`), which 3.1 documents do not use.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

type JsonSchema = Record<string, unknown>;

interface DocumentedOperation {
  parameters?: { name: string; in: string; schema: JsonSchema }[];
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}

interface ResolvedDocument {
  paths: Record<string, Record<string, DocumentedOperation>>;
}

interface PathMatcher {
  template: string;
  pattern: RegExp;
  names: string[];
}

interface Checker {
  doc: ResolvedDocument;
  matchers: PathMatcher[];
  ajv: Ajv2020;
  compiled: Map<JsonSchema, ValidateFunction>;
}

export interface ObservedResponse {
  status: number;
  headers: Headers;
  /** The raw body text. */
  text: string;
}

const checkers = new Map<string, Promise<Checker>>();

async function loadChecker(baseUrl: string): Promise<Checker> {
  const response = await fetch(`${baseUrl}/openapi.json`);
  const validator = new Validator();
  const result = await validator.validate((await response.json()) as Record<string, unknown>);
  if (!result.valid) throw new Error(`/openapi.json is not a valid OpenAPI document: ${JSON.stringify(result.errors)}`);
  const doc = validator.resolveRefs() as unknown as ResolvedDocument;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const matchers = Object.keys(doc.paths).map((template) => {
    const names: string[] = [];
    const source = template
      .split(/\{([^}]+)\}/)
      .map((part, index) => {
        if (index % 2 === 1) {
          names.push(part);
          return '([^/]+)';
        }
        return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      })
      .join('');
    return { template, pattern: new RegExp(`^${source}$`), names };
  });
  return { doc, matchers, ajv, compiled: new Map() };
}

function validatorFor(checker: Checker, schema: JsonSchema): ValidateFunction {
  let validate = checker.compiled.get(schema);
  if (!validate) {
    validate = checker.ajv.compile(schema);
    checker.compiled.set(schema, validate);
  }
  return validate;
}

/** The documented path item the request path falls under: its literal segments and its path parameters' schemas both match. */
function findPathItem(checker: Checker, path: string): Record<string, DocumentedOperation> | undefined {
  for (const matcher of checker.matchers) {
    const match = matcher.pattern.exec(path);
    if (!match) continue;
    const item = checker.doc.paths[matcher.template] ?? {};
    const fits = matcher.names.every((name, index) => {
      const parameter = Object.values(item)
        .flatMap((op) => op.parameters ?? [])
        .find((p) => p.in === 'path' && p.name === name);
      return parameter ? validatorFor(checker, parameter.schema)(decodeURIComponent(match[index + 1] ?? '')) : true;
    });
    if (fits) return item;
  }
  return undefined;
}

const mediaType = (headers: Headers) => (headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';

function expectErrorBody(checker: Checker, where: string, response: ObservedResponse): void {
  const error = (checker.doc as unknown as { components: { schemas: { Error: JsonSchema } } }).components.schemas.Error;
  const validate = validatorFor(checker, error);
  expect(validate(JSON.parse(response.text)), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

export async function expectDocumentedResponse(
  baseUrl: string,
  method: string,
  pathAndQuery: string,
  response: ObservedResponse,
): Promise<void> {
  let checker = checkers.get(baseUrl);
  if (!checker) {
    checker = loadChecker(baseUrl);
    checkers.set(baseUrl, checker);
  }
  const c = await checker;
  const path = new URL(pathAndQuery, baseUrl).pathname;
  const where = `${method} ${path} → ${response.status}`;
  const type = mediaType(response.headers);
  const item = findPathItem(c, path);
  if (!item) {
    expect(response.status, `${where}: no operation takes this path`).toBeGreaterThanOrEqual(400);
    expect(response.status, where).toBeLessThan(500);
    if (type === 'text/html') expect(path, where).toMatch(/^\/checkout\/[^/]+$/);
    else expectErrorBody(c, where, response);
    return;
  }
  const operation = item[method.toLowerCase()];
  if (!operation) {
    expect(response.status, `${where}: the path takes ${Object.keys(item).join(', ')}`).toBe(405);
    const allowed = (response.headers.get('allow') ?? '').split(',').map((m) => m.trim().toLowerCase());
    expect(allowed, `${where}: the Allow header`).toEqual(expect.arrayContaining(Object.keys(item)));
    expectErrorBody(c, where, response);
    return;
  }
  const documented = operation.responses[String(response.status)];
  expect(documented, `${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`).toBeDefined();
  if (!documented?.content || method === 'HEAD') {
    expect(response.text, `${where}: documented without a body`).toBe('');
    return;
  }
  const content = documented.content[type];
  expect(
    content,
    `${where}: content type ${type} not documented (documented: ${Object.keys(documented.content).join(', ')})`,
  ).toBeDefined();
  if (type !== 'application/json' || !content) return;
  const validate = validatorFor(c, content.schema);
  expect(validate(JSON.parse(response.text)), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true);
}
