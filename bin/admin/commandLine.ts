// The admin CLI's command line: what a command is called and takes, how its words are parsed and how its
// help reads. Nothing here loads a command's implementation, so --help and a malformed line cost no more.
import { parseArgs } from 'node:util';

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

export interface OptionSpec {
  /** Shown in --help, e.g. `<mer_…>`; absent for a flag. */
  value?: string;
  description: string;
  /** A secret (a key, a password, a mnemonic): the audit trail stores `[redacted]` instead of its value. */
  secret?: true;
}

/** A command's one word that is not an option, e.g. the session of `session cancel <cs_…>`. */
export interface PositionalSpec {
  /** The key its value is handed to the schema under. */
  name: string;
  /** Shown in usage lines, e.g. `<cs_…>`. */
  value: string;
  description: string;
}

export interface CommandSpec {
  name: string;
  summary: string;
  positional?: PositionalSpec;
  options: Record<string, OptionSpec>;
  /** Changes nothing, so it is not audited; every other command writes one audit row. */
  readOnly?: true;
}

export interface GroupSpec {
  name: string;
  summary: string;
  commands: CommandSpec[];
}

/** Splits argv after the command words into option values (and the command's positional word, if it takes one); unknown options and stray words are usage errors. */
export function parseOptions(
  command: CommandSpec,
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

export function commandHelp(group: GroupSpec, command: CommandSpec): string {
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

/** An error as the operator reads it: its first line, never a stack. */
export function errorLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'failed';
}
