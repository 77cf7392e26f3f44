import type Koa from 'koa';
import type { z } from 'zod';
import { validationErrors } from '../../domain/wire/validationMessages';
import type { AppState } from '../context';
import { ValidationFailedError } from '../errors';

interface Schemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}

type Input<S extends Schemas> = { [K in keyof S]: S[K] extends z.ZodType ? z.infer<S[K]> : never };

/**
 * Parses body, query and path parameters with their zod schemas and hands the typed result to the
 * handler; handlers never read raw input. Every failure is one 400 listing all problems.
 */
export function validated<S extends Schemas, State extends AppState = AppState>(
  schemas: S,
  handler: (ctx: Koa.ParameterizedContext<State>, input: Input<S>) => Promise<void>,
): Koa.Middleware<State> {
  return async (ctx) => {
    const sources = {
      body: (ctx.request as { body?: unknown }).body,
      query: ctx.query,
      params: (ctx as unknown as { params?: unknown }).params ?? {},
    };
    const input: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const key of ['params', 'query', 'body'] as const) {
      const schema = schemas[key];
      if (!schema) continue;
      const result = schema.safeParse(sources[key]);
      if (result.success) input[key] = result.data;
      else problems.push(...validationErrors(result.error, key));
    }
    if (problems.length > 0) throw new ValidationFailedError(problems);
    await handler(ctx, input as Input<S>);
  };
}
