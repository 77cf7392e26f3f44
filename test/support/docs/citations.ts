// What the repository's files cite. A clone carries neither the settlement and design briefs kept beside the
// repository, nor the interface contract whose numbered sections (spec, then the number) the code once cited, nor
// the tracker behind an issue number, so a comment citing any of them points a reader at nothing: files cite docs/
// instead, and every docs/<file>.md#anchor they cite must be a heading of that file.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { linkProblems } from './checkDocs';
import { markdownFileReferences } from './markdownReferences';

export interface SourceFile {
  /** Relative to the repository root, as git names it. */
  path: string;
  text: string;
}

export interface OutsideCitation {
  path: string;
  /** 1-based. */
  line: number;
  kind: 'brief' | 'contract' | 'issue';
  /** The text that cites. */
  cited: string;
}

const OUTSIDE: readonly { kind: OutsideCitation['kind']; pattern: RegExp }[] = [
  { kind: 'brief', pattern: /\b(?:SETTLEMENT|DESIGN)\.md\b/g },
  // A numbered section of the interface contract: spec (or specification) then the number, possibly after 'part' or
  // '§', in any case; or contract then a dotted number. Not a word that merely contains spec (ScheduleSpec, specs),
  // nor a whole number after contract (a protobuf field). The fixture shows each form.
  {
    kind: 'contract',
    pattern:
      /\bspec(?:ification)?(?:\s+(?:part|section))?(?:\s*§\s*|\s+)\d+(?:\.\d+)*|\bcontract(?:\s+part)?(?:\s*§\s*|\s+)\d+(?:\.\d+)+/gi,
  },
  // An issue or pull request named by its number, with or without '#', or a '#' and number in parentheses; not an
  // address such as github.com/<owner>/<repo>/issues/<number>.
  { kind: 'issue', pattern: /\b(?:issues?|PRs?|pull requests?)\s+#?\d+|\(#\d+\)/gi },
];

// A repository-relative docs/ page, optionally with its anchor; not a path that merely ends in docs/ (another
// repository's docs/api/… named in a fixture's sources, test/fixtures/docs/…).
const DOCS_CITATION = /(?<![\w./-])docs\/[\w.-]+\.md(?:#[\w-]+)?/g;

/** The repository's tracked text files as they are in the worktree (binary files and files deleted there left out). */
export function trackedTextFiles(root: string): SourceFile[] {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter(Boolean);
  return paths.flatMap((path) => {
    const absolute = join(root, path);
    if (!existsSync(absolute)) return [];
    const text = readFileSync(absolute, 'utf8');
    return text.includes('\0') ? [] : [{ path, text }];
  });
}

/** Every citation of a brief outside the repository, a section of the interface contract or an issue number, in file and line order. */
export function outsideCitations(files: readonly SourceFile[]): OutsideCitation[] {
  return files.flatMap(({ path, text }) =>
    text
      .split('\n')
      .flatMap((content, index) =>
        OUTSIDE.flatMap(({ kind, pattern }) =>
          [...content.matchAll(pattern)].map((match) => ({ path, line: index + 1, kind, cited: match[0] })),
        ),
      ),
  );
}

/** One line per docs/<file>.md[#anchor] a file cites that does not resolve: `path:line: docs/…: what is wrong`. */
export function brokenDocsCitations(root: string, files: readonly SourceFile[]): string[] {
  const referencesOf = markdownFileReferences();
  // Cited from the repository root, wherever the citing file is: resolved as from a file there.
  const atRoot = join(root, 'README.md');
  return files.flatMap(({ path, text }) =>
    text
      .split('\n')
      .flatMap((content, index) =>
        [...content.matchAll(DOCS_CITATION)].flatMap(([cited]) =>
          linkProblems(root, atRoot, cited, referencesOf).map((problem) => `${path}:${index + 1}: ${cited}: ${problem}`),
        ),
      ),
  );
}
