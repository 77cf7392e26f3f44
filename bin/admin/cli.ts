// The admin CLI's shared machinery for running commands: command definitions and their validation (zod),
// connections opened only by the commands that need them, and output as text or JSON.
import { userInfo } from 'node:os';
import type { Client, Connection } from '@temporalio/client';
import { loadChainsConfig, type ChainsConfig } from '../../config/chains';
import type { Config } from '../../config/env';
import { requireDatabaseUrl } from '../../config/env';
import { temporalConnectionOptions } from '../../config/temporalTls';
import { createSql, type Sql } from '../../db/client';
import type { Operator } from '../../domain/security/adminAudit';
import { z } from '../../domain/wire/validationMessages';
import { CliError, type CommandSpec, type GroupSpec, type OptionSpec, type PositionalSpec } from './commandLine';

// The groups' implementations take these from here, beside the rest of the machinery they use.
export { CliError, errorLine } from './commandLine';

export interface CommandResult {
  /** What `--json` prints. */
  json: unknown;
  /** What a person reads otherwise. */
  text: string[];
  /** Printed to stderr in both modes, and carried in the JSON as `warnings`. */
  warnings?: string[];
  /** The ids a state-changing command created or changed, for the audit trail. */
  targets?: string[];
  /** Set when the command ran and found something wrong, so scripts and cron notice: `ledger reconcile`'s differences. */
  exitCode?: number;
}

/** Where a run writes: the process's stdout and stderr, or a test's buffers. Each call is one line or more. */
export interface AdminIo {
  out(text: string): void;
  err(text: string): void;
}

export interface AdminContext {
  config: Config;
  /** Who runs the command, as the audit trail records it. */
  operator: Operator;
  /** The chains' RPC URLs, ids and tokens, read from the run's environment once a command first asks. */
  chains(): ChainsConfig;
  sql(): Sql;
  temporal(): Promise<Client>;
}

export interface Command extends CommandSpec {
  /** Checks the option values and hands them to `run` typed. */
  execute(context: AdminContext, values: Record<string, string | boolean | undefined>): Promise<CommandResult>;
}

/** Ties a command's zod schema to its handler, so `run` receives exactly what the schema produced. */
export function defineCommand<S extends z.ZodType>(definition: {
  name: string;
  summary: string;
  positional?: PositionalSpec;
  options: Record<string, OptionSpec>;
  readOnly?: true;
  schema: S;
  run(context: AdminContext, input: z.infer<S>): Promise<CommandResult>;
}): Command {
  return {
    name: definition.name,
    summary: definition.summary,
    ...(definition.positional ? { positional: definition.positional } : {}),
    options: definition.options,
    ...(definition.readOnly ? { readOnly: true as const } : {}),
    async execute(context, values) {
      const parsed = definition.schema.safeParse(values);
      if (!parsed.success) {
        const positional = definition.positional;
        const name = (path: PropertyKey[]) => (positional && path[0] === positional.name ? positional.value : `--${path.join('.')}`);
        const problems = parsed.error.issues.map((issue) =>
          issue.path.length > 0 ? `${name(issue.path)}: ${issue.message}` : issue.message,
        );
        throw new CliError(problems.join('; '), 2);
      }
      return definition.run(context, parsed.data);
    },
  };
}

export interface CommandGroup extends GroupSpec {
  commands: Command[];
}

/** Opens Postgres and Temporal only when a command first asks for them; close() releases what was opened. */
export function createContext(config: Config, operator: Operator, env: NodeJS.ProcessEnv): AdminContext & { close(): Promise<void> } {
  let chains: ChainsConfig | undefined;
  let sql: Sql | undefined;
  let connection: Connection | undefined;
  return {
    config,
    operator,
    chains() {
      chains ??= loadChainsConfig(env);
      return chains;
    },
    sql() {
      sql ??= createSql(requireDatabaseUrl(config), { max: 2 });
      return sql;
    },
    async temporal() {
      // Loaded on demand: the Temporal client doubles the start-up time of commands that never use it.
      const { Client, Connection } = await import('@temporalio/client');
      connection ??= await Connection.connect(temporalConnectionOptions(config.temporal));
      return new Client({ connection, namespace: config.temporal.namespace });
    },
    async close() {
      await Promise.allSettled([sql?.end({ timeout: 5 }), connection?.close()]);
    },
  };
}

export function printResult(result: CommandResult, json: boolean, io: AdminIo): void {
  for (const warning of result.warnings ?? []) io.err(`warning: ${warning}`);
  if (json) {
    const body = result.warnings?.length ? { ...(result.json as object), warnings: result.warnings } : result.json;
    io.out(JSON.stringify(body, null, 2));
  } else {
    io.out(result.text.join('\n'));
  }
}

// Option schemas shared by several commands. Numbers are parsed from digits only: no "1e3", no "0x10".
export const integerOption = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'Must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max));

export const ModeOption = z.enum(['test', 'live']);
export const MerchantIdOption = z.string().regex(/^mer_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be a merchant id (mer_…)');
export const SessionIdOption = z.string().regex(/^cs_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be a session id (cs_…)');

/** A timestamp for text output: ISO 8601 UTC, or a dash. */
export const when = (date: Date | null | undefined) => (date ? date.toISOString() : '-');

/** Left-aligned columns for text output. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** The OS login running the CLI, when the system can tell it (a container's arbitrary uid may have none). */
export function loginName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}
