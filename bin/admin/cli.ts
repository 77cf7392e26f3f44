// The admin CLI's shared machinery: command definitions, option parsing and validation (node:util
// parseArgs + zod), connections opened only by the commands that need them, and output as text or JSON.
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import type { Client, Connection } from '@temporalio/client';
import type { Config } from '../../config/env';
import { requireDatabaseUrl } from '../../config/env';
import { temporalConnectionOptions } from '../../config/temporalTls';
import { createSql, type Sql } from '../../db/client';
import type { Operator } from '../../domain/security/adminAudit';
import { z } from '../../domain/wire/validationMessages';

/** A refusal the operator can act on: printed as one line, never with a stack. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    /** 2 for a malformed command line, 1 for everything else. */
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

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

export interface AdminContext {
  config: Config;
  /** Who runs the command, as the audit trail records it. */
  operator: Operator;
  sql(): Sql;
  temporal(): Promise<Client>;
}

interface OptionSpec {
  /** Shown in --help, e.g. `<mer_…>`; absent for a flag. */
  value?: string;
  description: string;
  /** A secret (a key, a password, a mnemonic): the audit trail stores `[redacted]` instead of its value. */
  secret?: true;
}

/** A command's one word that is not an option, e.g. the session of `session cancel <cs_…>`. */
interface PositionalSpec {
  /** The key its value is handed to the schema under. */
  name: string;
  /** Shown in usage lines, e.g. `<cs_…>`. */
  value: string;
  description: string;
}

export interface Command {
  name: string;
  summary: string;
  positional?: PositionalSpec;
  options: Record<string, OptionSpec>;
  /** Changes nothing, so it is not audited; every other command writes one audit row. */
  readOnly?: true;
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

export interface CommandGroup {
  name: string;
  summary: string;
  commands: Command[];
}

/** Splits argv after the command words into option values (and the command's positional word, if it takes one); unknown options and stray words are usage errors. */
export function parseOptions(
  command: Command,
  args: string[],
): { values: Record<string, string | boolean | undefined>; help: boolean; json: boolean; operator: string | undefined } {
  const options: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' }, json: { type: 'boolean' } };
  if (!command.readOnly) options.operator = { type: 'string' };
  for (const [name, spec] of Object.entries(command.options)) options[name] = { type: spec.value ? 'string' : 'boolean' };
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: command.positional !== undefined });
    const { help, json, operator, ...rest } = values;
    if (positionals.length > 1) throw new CliError(`unexpected argument ${positionals[1]}`, 2);
    if (command.positional && positionals[0] !== undefined) rest[command.positional.name] = positionals[0];
    return { values: rest, help: help === true, json: json === true, operator: typeof operator === 'string' ? operator : undefined };
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError((error as Error).message.split('\n')[0] ?? 'invalid arguments', 2);
  }
}

const OPERATOR_FLAG = '--operator <name>';

export function commandHelp(group: CommandGroup, command: Command): string {
  const width = Math.max(
    ...Object.entries(command.options).map(([name, spec]) => `--${name}${spec.value ? ` ${spec.value}` : ''}`.length),
    OPERATOR_FLAG.length,
  );
  const lines = Object.entries(command.options).map(([name, spec]) => {
    const flag = `--${name}${spec.value ? ` ${spec.value}` : ''}`;
    return `  ${flag.padEnd(width)}  ${spec.description}`;
  });
  const positional = command.positional;
  return [
    `checkout-admin ${group.name} ${command.name}: ${command.summary}`,
    '',
    ...(positional
      ? [
          `usage: checkout-admin ${group.name} ${command.name} ${positional.value} [options]`,
          `  ${positional.value}  ${positional.description}`,
          '',
        ]
      : []),
    'Options:',
    ...lines,
    ...(command.readOnly
      ? []
      : [`  ${OPERATOR_FLAG.padEnd(width)}  who runs it, for the audit trail (default: CHECKOUT_OPERATOR, then the login name)`]),
    `  ${'--json'.padEnd(width)}  print the result as JSON`,
    `  ${'--help'.padEnd(width)}  show this help`,
  ].join('\n');
}

/** Opens Postgres and Temporal only when a command first asks for them; close() releases what was opened. */
export function createContext(config: Config, operator: Operator): AdminContext & { close(): Promise<void> } {
  let sql: Sql | undefined;
  let connection: Connection | undefined;
  return {
    config,
    operator,
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

export function printResult(result: CommandResult, json: boolean): void {
  for (const warning of result.warnings ?? []) console.error(`warning: ${warning}`);
  if (json) {
    const body = result.warnings?.length ? { ...(result.json as object), warnings: result.warnings } : result.json;
    console.log(JSON.stringify(body, null, 2));
  } else {
    console.log(result.text.join('\n'));
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

/** An error as the operator reads it: its first line, never a stack. */
export function errorLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'failed';
}

/** The OS login running the CLI, when the system can tell it (a container's arbitrary uid may have none). */
export function loginName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}
