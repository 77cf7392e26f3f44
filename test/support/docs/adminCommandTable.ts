// The admin CLI's commands and options as the CLI itself states them: its --help output, which bin/admin.ts
// prints from its own command table. The docs check then knows what the parser accepts, with no copy here.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function adminHelp(root: string, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args, '--help'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '' },
  });
  return stdout;
}

/** `<group> <command>` → option names without `--` (`--json` and `--help` included). */
export async function adminCommandTable(root: string): Promise<Map<string, Set<string>>> {
  const overview = await adminHelp(root, []);
  const names = [...overview.matchAll(/^ {2}(\S+) (\S+) {2,}/gm)].map((match) => `${match[1]} ${match[2]}`);
  if (names.length === 0) throw new Error(`no commands in the admin CLI's --help output:\n${overview}`);
  const table = new Map<string, Set<string>>();
  // Two at a time: each is a Node process starting tsx.
  for (let i = 0; i < names.length; i += 2) {
    await Promise.all(
      names.slice(i, i + 2).map(async (name) => {
        const help = await adminHelp(root, name.split(' '));
        table.set(name, new Set([...help.matchAll(/^ {2}--([\w-]+)/gm)].map((match) => match[1] ?? '')));
      }),
    );
  }
  return table;
}
