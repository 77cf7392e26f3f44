// What a Markdown file points at, read the way GitHub renders it: link and image targets (markdown-it, so
// nothing inside code counts), heading anchors (github-slugger, GitHub's own slug rules) and the commands of
// its fenced shell blocks, split into words by shell-quote.
import { readFileSync } from 'node:fs';
import GithubSlugger from 'github-slugger';
import MarkdownIt, { type Token } from 'markdown-it';
import { parse as parseShell } from 'shell-quote';

export interface Located<T> {
  /** 1-based line in the Markdown file. */
  line: number;
  value: T;
}

export interface MarkdownReferences {
  /** Targets of links and images that are not absolute URLs (`docs/api.md#endpoints`, `#endpoints`, `bench/RESULTS.md`). */
  links: Located<string>[];
  /** The `#fragment` of every heading. */
  anchors: Set<string>;
  /** Every simple command of a `sh`/`bash`/`shell` fence, as its words. */
  commands: Located<string[]>[];
}

const SHELL_FENCES = new Set(['sh', 'bash', 'shell', 'console']);
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i;
// Words that start a command without being one: the command follows them.
const SHELL_KEYWORDS = new Set(['do', 'then', 'else', 'time', '!']);

const markdown = new MarkdownIt();

export function markdownReferences(text: string): MarkdownReferences {
  const tokens = markdown.parse(text, {});
  const slugger = new GithubSlugger();
  const references: MarkdownReferences = { links: [], anchors: new Set(), commands: [] };
  // Inline tokens in table cells carry no position: they take the row's.
  let line = 1;
  tokens.forEach((token, index) => {
    if (token.map) line = token.map[0] + 1;
    if (token.type === 'heading_open') references.anchors.add(slugger.slug(plainText(tokens[index + 1])));
    if (token.type === 'inline') {
      let breaks = 0;
      for (const child of token.children ?? []) {
        if (child.type === 'softbreak' || child.type === 'hardbreak') breaks++;
        const target = child.type === 'link_open' ? child.attrGet('href') : child.type === 'image' ? child.attrGet('src') : null;
        if (typeof target === 'string' && target !== '' && !ABSOLUTE_URL.test(target))
          references.links.push({ line: line + breaks, value: target });
      }
    }
    if (token.type === 'fence' && SHELL_FENCES.has(token.info.trim())) {
      for (const command of shellCommands(token.content)) references.commands.push({ line: line + 1 + command.line, value: command.value });
    }
  });
  return references;
}

/** A heading's text as GitHub slugs it: the content of code spans without their backticks, no markup. */
function plainText(inline: Token | undefined): string {
  return (inline?.children ?? []).map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : '')).join('');
}

/** Simple commands of a script, with their 0-based line; `$VARS` stay as written, comments are dropped. */
export function shellCommands(script: string): Located<string[]>[] {
  const commands: Located<string[]>[] = [];
  for (const { line, value } of logicalLines(script)) {
    let words: string[] = [];
    const flush = () => {
      while (words.length > 0 && (SHELL_KEYWORDS.has(words[0] ?? '') || /^\w+=/.test(words[0] ?? ''))) words = words.slice(1);
      if (words.length > 0) commands.push({ line, value: words });
      words = [];
    };
    for (const entry of parseShell(value, (name) => `$${name}`)) {
      if (typeof entry === 'string') words.push(entry);
      else if ('op' in entry && entry.op !== 'glob') flush();
      else if ('pattern' in entry) words.push(entry.pattern);
    }
    flush();
  }
  return commands;
}

/**
 * The script's lines as the shell reads them: a backslash-newline continues the line, and a newline inside
 * quotes belongs to the quoted word (shell-quote itself treats every newline as a space).
 */
function logicalLines(script: string): Located<string>[] {
  const lines: Located<string>[] = [];
  let current = '';
  let start = 0;
  let physical = 0;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < script.length; i++) {
    const char = script[i] ?? '';
    if (char === '\\' && script[i + 1] === '\n' && quote !== "'") {
      current += ' ';
      physical++;
      i++;
      continue;
    }
    if (char === '\\' && quote !== "'") {
      current += char + (script[i + 1] ?? '');
      i++;
      continue;
    }
    if ((char === '"' || char === "'") && (quote === undefined || quote === char)) quote = quote ? undefined : char;
    if (char === '#' && quote === undefined && (current === '' || /\s$/.test(current))) {
      while (i + 1 < script.length && script[i + 1] !== '\n') i++;
      continue;
    }
    if (char === '\n') {
      physical++;
      if (quote === undefined) {
        if (current.trim()) lines.push({ line: start, value: current });
        current = '';
        start = physical;
        continue;
      }
    }
    current += char;
  }
  if (current.trim()) lines.push({ line: start, value: current });
  return lines;
}

/** Reads each Markdown file's references once, however many citations or links point at it. */
export function markdownFileReferences(): (file: string) => MarkdownReferences {
  const cache = new Map<string, MarkdownReferences>();
  return (file) => {
    let references = cache.get(file);
    if (!references) {
      references = markdownReferences(readFileSync(file, 'utf8'));
      cache.set(file, references);
    }
    return references;
  };
}
