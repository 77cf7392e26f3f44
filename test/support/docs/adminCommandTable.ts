// The admin CLI's commands and options as the CLI itself states them: the command list from its --help output,
// and each command's options from the help text bin/admin.ts prints for `<group> <command> --help` (commandHelp
// over its own command table). The docs check then knows what the parser accepts, with no copy here.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { commandHelp } from '../../../bin/admin/commandLine';
import { GROUPS } from '../../../bin/admin/commandGroups';

const run = promisify(execFile);

/** `<group> <command>` → option names without `--` (`--json` and `--help` included). */
export async function adminCommandTable(root: string): Promise<Map<string, Set<string>>> {
  const { stdout: overview } = await run(process.execPath, ['--import', 'tsx', 'bin/admin.ts', '--help'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '' },
  });
  const names = [...overview.matchAll(/^ {2}(\S+) (\S+) {2,}/gm)].map((match) => `${match[1]} ${match[2]}`);
  if (names.length === 0) throw new Error(`no commands in the admin CLI's --help output:\n${overview}`);
  const table = new Map<string, Set<string>>();
  // Rendered in this process as the CLI renders it (test/bin/admin.test.ts runs `<group> <command> --help` as a
  // process): one process per command would take minutes on a loaded machine.
  for (const name of names) {
    const [groupName, commandName] = name.split(' ');
    const group = GROUPS.find((g) => g.name === groupName);
    const command = group?.commands.find((c) => c.name === commandName);
    if (!group || !command) throw new Error(`the admin CLI's --help lists ${name}, which its command table does not have`);
    table.set(name, new Set([...commandHelp(group, command).matchAll(/^ {2}--([\w-]+)/gm)].map((match) => match[1] ?? '')));
  }
  return table;
}
