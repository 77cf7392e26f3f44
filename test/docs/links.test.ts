// README.md and docs/*.md point only at things that exist: relative links and #anchors, npm scripts, admin
// CLI commands with their options (as the CLI's own --help states them) and repository paths in shell blocks.
// A fixture with one of each mistake shows that the check finds them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../toolchain/paths';
import { adminCommandTable } from '../support/docs/adminCommandTable';
import { checkDocs, type DocsProject } from '../support/docs/checkDocs';

const FIXTURE = join(projectRoot, 'test', 'fixtures', 'docs');
const scripts = new Set(
  Object.keys((JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts),
);

let adminCommands: Map<string, Set<string>>;

beforeAll(async () => {
  adminCommands = await adminCommandTable(projectRoot);
});

describe('README.md, SECURITY.md and docs/*.md', () => {
  it('link only to files and headings that exist, and run only scripts, commands and paths that exist', () => {
    const docs = readdirSync(join(projectRoot, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(projectRoot, 'docs', name));
    expect(docs.length).toBeGreaterThan(0);
    expect(
      checkDocs({ root: projectRoot, scripts, adminCommands }, [join(projectRoot, 'README.md'), join(projectRoot, 'SECURITY.md'), ...docs]),
    ).toEqual([]);
  });
});

describe('the docs check', () => {
  it('reads the admin CLI commands and their options from the CLI', () => {
    expect(adminCommands.get('key create')).toEqual(new Set(['merchant', 'mode', 'label', 'operator', 'json', 'help']));
    expect(adminCommands.has('bank mark-received')).toBe(true);
  });

  it('reports each broken link, script, command, option and path of a fixture, and nothing that resolves', () => {
    const project: DocsProject = { root: FIXTURE, scripts, adminCommands };
    expect(checkDocs(project, [join(FIXTURE, 'bad.md')])).toEqual([
      'bad.md:6: link guide/missing.md: no such file',
      'bad.md:6: link guide/target.md#absent: no heading with anchor #absent in guide/target.md',
      'bad.md:7: link ../../../README.md: points outside the repository',
      'bad.md:7: link guide/missing.png: no such file',
      'bad.md:13: `npm run nonexistent`: no script "nonexistent" in package.json',
      'bad.md:14: `npm ci`: npm ci is not a script in package.json (use npm run <script>)',
      'bad.md:15: `npm run admin -- merchant delete --id mer_1`: the admin CLI has no command "merchant delete"',
      'bad.md:16: `checkout-admin key create --merchant mer_1 --colour red`: checkout-admin key create has no option --colour',
      'bad.md:17: `cat guide/target.md guide/absent.md`: guide/absent.md does not exist',
      "bad.md:18: `npm run admin -- bank mark-received --session cs_1 --amount-usd 1 --by it's me --wrong`: checkout-admin bank mark-received has no option --wrong",
      'bad.md:20: `npm run vanished`: no script "vanished" in package.json',
    ]);
  });
});
