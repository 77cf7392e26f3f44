// One run of the operator CLI (bin/admin.ts). Help and a malformed command line are answered from the manifest
// alone; the configuration, the connections and the chosen group's implementation are imported only once a command
// runs, as most of the start-up is theirs. Errors are one line, never a stack, with a non-zero exit (2 for a
// malformed command line).
import { redactArguments, resolveOperator } from '../../domain/security/adminAudit';
import { COMMAND_MANIFEST } from './commandManifest';
import { CliError, commandHelp, errorLine, parseOptions, type GroupSpec } from './commandLine';
import type { AdminIo } from './cli';
import { GROUP_LOADERS } from './groupLoaders';

const isHelp = (word: string | undefined) => word === undefined || word === '--help' || word === '-h' || word === 'help';

function overview(): string {
  const lines = COMMAND_MANIFEST.flatMap((group) =>
    group.commands.map((command) => [`${group.name} ${command.name}`, command.summary] as const),
  );
  const width = Math.max(...lines.map(([name]) => name.length));
  return [
    'usage: checkout-admin <group> <command> [options] [--json]',
    '',
    ...lines.map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`),
    '',
    'Every command takes --help. Configuration: DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE;',
    'without DATABASE_URL, those of the npm start running in this directory (DATA_DIR/dev.json).',
    'Commands that change something are audited (`audit list`) under --operator, else CHECKOUT_OPERATOR, else the login name.',
  ].join('\n');
}

function groupHelp(group: GroupSpec): string {
  const width = Math.max(...group.commands.map((command) => command.name.length));
  return [
    `usage: checkout-admin ${group.name} <command> [options] [--json]`,
    '',
    ...group.commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
  ].join('\n');
}

async function loadCommand(groupName: string, commandName: string) {
  const loader = GROUP_LOADERS[groupName];
  const command = loader && (await loader()).commands.find((c) => c.name === commandName);
  // The manifest is written from the groups (npm run admin-manifest); a stale one is a build error, not the operator's.
  if (!command) throw new Error(`${groupName} ${commandName} is in the command manifest but not in its group; run npm run admin-manifest`);
  return command;
}

/** The process's own output. */
export const consoleIo: AdminIo = { out: (text) => console.log(text), err: (text) => console.error(text) };

/**
 * Runs one command line as `checkout-admin` does and returns its exit code. A command reads its environment from
 * `env` alone, so a run is the same in the binary and in a test that calls it in its own process.
 */
export async function runAdmin(argv: string[], env: NodeJS.ProcessEnv, io: AdminIo): Promise<number> {
  const json = argv.includes('--json');
  try {
    const [groupName, commandName, ...rest] = argv;
    if (isHelp(groupName)) {
      io.out(overview());
      return 0;
    }
    const group = COMMAND_MANIFEST.find((g) => g.name === groupName);
    if (!group) throw new CliError(`unknown command group ${groupName}; run with --help for the list`, 2);
    // A group of one command runs it unnamed: `checkout-admin routes --mode test` is `routes show --mode test`.
    const sole = group.commands.length === 1 && (commandName === undefined || commandName.startsWith('-')) ? group.commands[0] : undefined;
    if (!sole && isHelp(commandName)) {
      io.out(groupHelp(group));
      return 0;
    }
    const command = sole ?? group.commands.find((c) => c.name === commandName);
    if (!command) throw new CliError(`unknown command ${group.name} ${commandName}; run \`${group.name} --help\` for the list`, 2);
    // A malformed command line is refused inside the audited run, so the refusal is on the trail too.
    let options: ReturnType<typeof parseOptions> | undefined;
    let usageError: unknown;
    try {
      options = parseOptions(command, sole ? argv.slice(1) : rest);
    } catch (error) {
      if (command.readOnly) throw error;
      usageError = error;
    }
    if (options?.help) {
      io.out(commandHelp(group, command));
      return 0;
    }
    const [{ loadConfig }, { adoptRunningDevStack }, { createContext, loginName, printResult }, { runAudited }, implementation] =
      await Promise.all([
        import('../../config/env'),
        import('../devState'),
        import('./cli'),
        import('./auditTrail'),
        loadCommand(group.name, command.name),
      ]);
    const { operator, problem } = resolveOperator(options?.operator, env.CHECKOUT_OPERATOR, loginName);
    const config = adoptRunningDevStack(loadConfig(env, 'admin'), env, (line) => io.err(`note: ${line}`));
    const context = createContext(config, operator, env);
    try {
      const execute = () => {
        if (!options) throw usageError;
        if (problem) throw new CliError(problem, 2);
        return implementation.execute(context, options.values);
      };
      const args = options ? redactArguments(options.values, (name) => command.options[name]?.secret === true) : {};
      const result = command.readOnly
        ? await execute()
        : await runAudited(context, { action: `${group.name}.${command.name}`, arguments: args }, execute);
      printResult(result, options?.json ?? json, io);
      return result.exitCode ?? 0;
    } finally {
      await context.close();
    }
  } catch (error) {
    // One line, never a stack: operators read it, scripts parse it with --json.
    const message = errorLine(error);
    io.err(json ? JSON.stringify({ error: message }) : `error: ${message}`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}
