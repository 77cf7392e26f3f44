// Writes commandManifest.ts from the command groups (`npm run admin-manifest`), after a command's name,
// summary, positional word or options changed; test/bin/adminManifest.test.ts fails until it is rewritten.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { GROUP_SPECS } from './commandGroups';

const path = fileURLToPath(new URL('./commandManifest.ts', import.meta.url));
const source = [
  '// Written by `npm run admin-manifest` (bin/admin/writeCommandManifest.ts) from bin/admin/commandGroups.ts: what the',
  '// CLI lists, parses and prints help from without loading any group.',
  "import type { GroupSpec } from './commandLine';",
  '',
  `export const COMMAND_MANIFEST: GroupSpec[] = ${JSON.stringify(GROUP_SPECS)};`,
].join('\n');
await writeFile(path, await format(source, { ...(await resolveConfig(path)), filepath: path }));
