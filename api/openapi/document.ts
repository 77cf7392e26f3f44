// Builds the OpenAPI 3.1 document from OPERATIONS. JSON Schema 2020-12 (zod 4's default target) is the
// schema dialect of OpenAPI 3.1, so zod's output is used as is.
import { z } from 'zod';
import { ErrorBody } from '../../domain/wire/apiError';
import { OPERATIONS, type Auth, type Operation } from './operations';

type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Partial<Record<'get' | 'post', OpenApiOperation>>>;
  components: { securitySchemes: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> };
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Validation failed (details.validation_errors lists every problem), malformed JSON, or a refused choice.',
  401: 'A credential or the x-service-user-type header is missing, or the session token is invalid or expired.',
  403: 'A credential is present but refused, or the operation is not allowed for it.',
  404: 'Not found (including resources of another merchant or of the other mode).',
  409: 'Conflicts with the current state of the session or refund.',
  410: 'Gone for good: the refund was not claimed before it expired.',
  413: 'Request body too large.',
  415: 'Content-Type must be application/json.',
  429: 'Rate limit of the API key (or, for session-token calls, of the checkout session or of its merchant) exceeded, or too many failed authentications from the client address; Retry-After gives the seconds to wait.',
  503: 'A dependency is unavailable or not configured; the message says whether retrying helps.',
  500: 'Internal error; quote request_id.',
};

/** Security requirement objects: each alternative also needs the user-type header (docs/api.md#authentication). */
const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  apiKey: [{ apiKey: [], userType: [] }],
  sessionToken: [
    { sessionBearer: [], userType: [] },
    { sessionQuery: [], userType: [] },
  ],
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query'): OpenApiParameter[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property as JsonSchema & { description?: string };
    return {
      name,
      in: location,
      required: location === 'path' || (object.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

export const openApiPath = (routerPath: string) => routerPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const TEXT = { schema: { type: 'string' } };

function operationObject(op: Operation): OpenApiOperation {
  const success = op.success;
  const successContent: Record<string, { schema: JsonSchema }> =
    success.contentType && success.contentType !== 'application/json'
      ? { [success.contentType]: TEXT }
      : {
          'application/json': {
            schema: success.envelope
              ? jsonSchema(success.envelope, 'output')
              : success.data
                ? jsonSchema(z.object({ data: success.data }).strict(), 'output')
                : { type: 'object' },
          },
        };
  const responses: OpenApiOperation['responses'] = {
    [String(success.status)]: { description: success.description, content: successContent },
  };
  for (const other of op.alsoAnswers ?? []) {
    responses[String(other.status)] = {
      description: other.description,
      ...(other.content === 'as success' ? { content: successContent } : {}),
    };
  }
  for (const status of [...op.errors, 500]) {
    responses[String(status)] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error.',
      content: op.htmlErrors?.includes(status)
        ? { 'text/html': TEXT }
        : { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    tags: [op.tag],
    security: op.auth.flatMap((auth) => SECURITY[auth]),
    parameters: [...parameters(op.params, 'path'), ...parameters(op.query, 'query')],
    // A schema that accepts no body at all (cancel's) makes the body optional.
    ...(op.body
      ? {
          requestBody: {
            required: !op.body.safeParse(undefined).success,
            content: { 'application/json': { schema: jsonSchema(op.body, 'input') } },
          },
        }
      : {}),
    responses,
  };
}

export function buildOpenApiDocument(serverUrl: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const op of OPERATIONS) {
    const path = openApiPath(op.path);
    paths[path] = { ...paths[path], [op.method]: operationObject(op) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Stablecoin checkout API',
      version: '1.0.0',
      description:
        'USD-priced checkout sessions paid in USDC or USDT on eight chains, settled as USDC on Solana, or by bank transfer, which the merchant receives directly. Successful responses wrap their payload in `data`; errors are `{ error, details? }`. Keys starting `mk_test_` use test networks and simulated settlement; `mk_live_` keys use mainnet. Test and live data never mix.',
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(OPERATIONS.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'Merchant API key, mk_test_… or mk_live_…; server-side only.',
        },
        userType: { type: 'apiKey', in: 'header', name: 'x-service-user-type', description: 'Must be `checkout` on every call.' },
        sessionBearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Session token from checkout_url_with_token; valid for its session until expires_at.',
        },
        sessionQuery: { type: 'apiKey', in: 'query', name: 'token', description: 'The session token as a query parameter.' },
      },
      schemas: { Error: jsonSchema(ErrorBody, 'output') },
    },
  };
}
