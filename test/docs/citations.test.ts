// The repository stands on its own: no tracked file cites the briefs kept beside it, a numbered section of the
// interface contract ("spec 2.8") or an issue number, and every docs/<file>.md#anchor a file cites is a heading of
// that file. A fixture with one of each mistake shows that the
// check finds them, and that what only looks like one passes.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../toolchain/paths';
import { brokenDocsCitations, outsideCitations, trackedTextFiles, type OutsideCitation, type SourceFile } from '../support/docs/citations';

const FIXTURE = join('test', 'fixtures', 'docs', 'citations');
const THIS_FILE = join('test', 'docs', 'citations.test.ts');

const where = (citation: OutsideCitation) => `${citation.path}:${citation.line}: ${citation.kind} "${citation.cited}"`;

describe('every tracked file', () => {
  // The fixture holds the mistakes on purpose, and this file names what the check reports for them.
  const files = trackedTextFiles(projectRoot).filter((file) => !file.path.startsWith(`${FIXTURE}/`) && file.path !== THIS_FILE);

  it('cites docs/, never a brief outside the repository, a section of the interface contract or an issue number', () => {
    expect(files.map((file) => file.path)).toContain('docs/settlement.md');
    expect(outsideCitations(files).map(where)).toEqual([]);
  });

  it('cites only docs/ pages and headings that exist', () => {
    expect(brokenDocsCitations(projectRoot, files)).toEqual([]);
  });
});

describe('the citations check', () => {
  const root = join(projectRoot, FIXTURE);
  const fixture = trackedTextFiles(root).filter((file): file is SourceFile => file.path === 'code.txt');

  it('finds each citation of a brief, a contract section or an issue number, by line, and nothing else', () => {
    expect(fixture).toHaveLength(1);
    const found = outsideCitations(fixture);
    expect(found.map((citation) => `${citation.path}:${citation.line}: ${citation.kind}`)).toEqual([
      'code.txt:3: brief',
      'code.txt:4: brief',
      'code.txt:5: issue',
      'code.txt:5: issue',
      'code.txt:6: issue',
      'code.txt:6: issue',
      'code.txt:8: contract',
      'code.txt:8: contract',
      'code.txt:8: contract',
      'code.txt:8: contract',
      'code.txt:8: contract',
    ]);
    expect(found.filter((citation) => citation.kind === 'contract').map((citation) => citation.cited)).toEqual([
      'spec 4.2',
      'Spec 5.1',
      'spec part 7',
      'specification § 3',
      'contract 4.8',
    ]);
    const lines = fixture[0]?.text.split('\n') ?? [];
    for (const citation of found) expect(lines[citation.line - 1]).toContain(citation.cited);
  });

  it('reports each docs/ citation that does not resolve, and not the one that does', () => {
    expect(brokenDocsCitations(root, fixture)).toEqual([
      'code.txt:7: docs/rules.md#no-such-rule: no heading with anchor #no-such-rule in docs/rules.md',
      'code.txt:7: docs/missing.md#rules: no such file',
      'code.txt:7: docs/absent.md: no such file',
    ]);
  });
});
