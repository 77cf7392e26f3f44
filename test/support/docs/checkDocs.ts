// Checks that what README.md and docs/*.md point at exists: relative links and #anchors, npm scripts, admin
// CLI commands and their options, and repository paths named in shell blocks. Returns one line per problem.
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { markdownFileReferences, type MarkdownReferences } from './markdownReferences';

export interface DocsProject {
  /** The repository root: links may not leave it. */
  root: string;
  /** package.json scripts. */
  scripts: ReadonlySet<string>;
  /** `<group> <command>` of the admin CLI → the options it accepts (without `--`). */
  adminCommands: ReadonlyMap<string, ReadonlySet<string>>;
}

// npm runs these scripts without `run`.
const NPM_SCRIPT_SHORTHANDS = new Set(['start', 'test', 'stop', 'restart']);
const GLOB = /[*?[{]/;

export function checkDocs(project: DocsProject, files: readonly string[]): string[] {
  const referencesOf = markdownFileReferences();
  return files.flatMap((file) => {
    const where = (line: number) => `${relative(project.root, file)}:${line}`;
    const { links, commands } = referencesOf(file);
    return [
      ...links.flatMap(({ line, value }) =>
        linkProblems(project.root, file, value, referencesOf).map((problem) => `${where(line)}: link ${value}: ${problem}`),
      ),
      ...commands.flatMap(({ line, value }) =>
        commandProblems(project, value).map((problem) => `${where(line)}: \`${value.join(' ')}\`: ${problem}`),
      ),
    ];
  });
}

/** What is wrong with `link` as written in `file` (relative to it, or to `root` when it starts with /); [] when it resolves. */
export function linkProblems(root: string, file: string, link: string, referencesOf: (file: string) => MarkdownReferences): string[] {
  const [pathPart = '', anchor] = link.split('#', 2);
  const path = decodeURIComponent(pathPart.split('?')[0] ?? '');
  const target = path === '' ? file : path.startsWith('/') ? join(root, path) : resolve(dirname(file), path);
  const inside = relative(root, target);
  if (inside.startsWith('..') || isAbsolute(inside)) return ['points outside the repository'];
  if (!existsSync(target)) return ['no such file'];
  if (anchor === undefined) return [];
  if (!target.endsWith('.md') || !statSync(target).isFile()) return ['an anchor into a file that is not Markdown'];
  return referencesOf(target).anchors.has(anchor) ? [] : [`no heading with anchor #${anchor} in ${relative(root, target)}`];
}

function commandProblems(project: DocsProject, words: string[]): string[] {
  return [...programProblems(project, words), ...words.flatMap((word) => pathProblems(project, word))];
}

function programProblems(project: DocsProject, words: string[]): string[] {
  const [program, first, second] = words;
  if (program === 'checkout-admin') return adminProblems(project, words.slice(1));
  if (program !== 'npm' || first === undefined) return [];
  const script = first === 'run' || first === 'run-script' ? second : NPM_SCRIPT_SHORTHANDS.has(first) ? first : undefined;
  if (script === undefined) return [`npm ${first} is not a script in package.json (use npm run <script>)`];
  if (!project.scripts.has(script)) return [`no script "${script}" in package.json`];
  if (script !== 'admin') return [];
  const separator = words.indexOf('--');
  if (separator !== -1) return adminProblems(project, words.slice(separator + 1));
  return words.length > 3 ? ['npm run admin needs -- before the command'] : [];
}

function adminProblems(project: DocsProject, args: string[]): string[] {
  const [group, command] = args;
  if (group === undefined || group.startsWith('-')) return [];
  // A group of one command runs it unnamed (bin/admin.ts): `checkout-admin routes --mode test`.
  const inGroup = [...project.adminCommands.keys()].filter((known) => known.startsWith(`${group} `));
  const sole = inGroup.length === 1 && (command === undefined || command.startsWith('-')) ? inGroup[0] : undefined;
  const name = sole ?? `${group} ${command ?? ''}`.trim();
  const options = project.adminCommands.get(name);
  if (!options) {
    return command === undefined && inGroup.length > 0 ? [] : [`the admin CLI has no command "${name}"`];
  }
  return args
    .slice(sole ? 1 : 2)
    .filter((arg) => arg.startsWith('--'))
    .map((arg) => arg.slice(2).split('=')[0] ?? '')
    .filter((option) => !options.has(option))
    .map((option) => `checkout-admin ${name} has no option --${option}`);
}

/**
 * A word that looks like a path into one of the repository's top-level folders must exist. Dot folders
 * (.data, .tools) are made by running the service, so a fresh checkout lacks them.
 */
function pathProblems(project: DocsProject, word: string): string[] {
  const match = /^(?:\.\/)?(\w[\w.-]*)\/[\w./*?[\]{},-]*$/.exec(word);
  if (!match?.[1] || !isDirectory(join(project.root, match[1]))) return [];
  const globAt = word.search(GLOB);
  const concrete = globAt === -1 ? word : word.slice(0, word.lastIndexOf('/', globAt) + 1);
  return existsSync(join(project.root, concrete)) ? [] : [`${word} does not exist`];
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
