// What a set of entry points loads at run time, followed through relative imports: the files, the top-level
// folders they live in, and the npm packages they import. `import type` is skipped (erased before running);
// dynamic import() and `new URL('…', import.meta.url)` (files read at run time, such as the workflow bundle's
// source) count.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface ImportGraph {
  files: Set<string>;
  /** First path segment of every file and runtime-read path, relative to the root (`api`, `db`, …). */
  topLevelFolders: Set<string>;
  /** Bare specifiers reduced to package names (`@temporalio/client`, `viem`), `node:` built-ins excluded. */
  packages: Set<string>;
}

const EXTENSIONS = ['', '.ts', '.mts', '.js', '.mjs', '.cjs', '/index.ts'];

function specifiersOf(file: string): { code: string[]; urls: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const code: string[] = [];
  const urls: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && !node.importClause?.isTypeOnly) {
      code.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && !node.isTypeOnly) {
      code.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) code.push(arg.text);
    } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL') {
      const [arg, base] = node.arguments ?? [];
      if (arg && ts.isStringLiteral(arg) && base?.getText().includes('import.meta.url') && arg.text.startsWith('.')) urls.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { code, urls };
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

export function importGraph(root: string, entryPoints: string[]): ImportGraph {
  const graph: ImportGraph = { files: new Set(), topLevelFolders: new Set(), packages: new Set() };
  // A file's folder; a runtime-read path may name a folder itself (`new URL('../page/', …)`).
  const topLevel = (path: string, isFolder = false) => {
    const [first, ...rest] = relative(root, path).split(sep);
    if (first && first !== '..' && (rest.length > 0 || isFolder)) graph.topLevelFolders.add(first);
  };
  const pending = entryPoints.map((entry) => resolve(root, entry));
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (graph.files.has(file)) continue;
    graph.files.add(file);
    topLevel(file);
    if (!/\.(ts|mts|js|mjs)$/.test(file)) continue;
    const { code, urls } = specifiersOf(file);
    for (const url of urls) topLevel(resolve(dirname(file), url), url.endsWith('/'));
    for (const specifier of code) {
      if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
      if (!specifier.startsWith('.')) {
        graph.packages.add(packageName(specifier));
        continue;
      }
      const target = resolveRelative(file, specifier);
      if (!target) throw new Error(`${relative(root, file)} imports ${specifier}, which does not exist`);
      pending.push(target);
    }
  }
  return graph;
}
