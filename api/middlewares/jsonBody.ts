import type Koa from 'koa';
import getRawBody from 'raw-body';
import type { AppContext, AppState } from '../context';
import { jsonBodyProblem } from '../../domain/wire/jsonLimits';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors';

/** Reads a JSON request body into ctx.request.body with size, depth and content limits; bad input becomes a clean 4xx. */
export function jsonBody(limitBytes: number): Koa.Middleware<AppState> {
  // Bodiless methods pass straight on, without an async step of their own: each one costs every request its promises.
  return (ctx, next) => (BODY_METHODS.has(ctx.method) ? readBody(ctx, next, limitBytes) : next());
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

async function readBody(ctx: AppContext, next: Koa.Next, limitBytes: number): Promise<void> {
  const length = Number(ctx.get('content-length') || 0);
  if (length > limitBytes) throw new PayloadTooLargeError(`Request body exceeds ${limitBytes} bytes`);
  const declared = ctx.request.length;
  if (declared === 0 || (declared === undefined && !ctx.get('transfer-encoding'))) {
    (ctx.request as { body?: unknown }).body = undefined;
    return next();
  }
  if (!ctx.is('application/json')) throw new UnsupportedMediaTypeError('Content-Type must be application/json');
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit: limitBytes, encoding: 'utf8' });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large')
      throw new PayloadTooLargeError(`Request body exceeds ${limitBytes} bytes`);
    throw new BadRequestError('Request body could not be read');
  }
  let body: unknown;
  try {
    body = text.length === 0 ? undefined : JSON.parse(text);
  } catch {
    throw new BadRequestError('Malformed JSON in request body');
  }
  const problem = jsonBodyProblem(body);
  if (problem) throw new BadRequestError(problem);
  (ctx.request as { body?: unknown }).body = body;
  return next();
}
