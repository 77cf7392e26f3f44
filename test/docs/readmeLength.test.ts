// The README is the front door, not the reference: it stays within 300 lines, and what grows goes to docs/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../toolchain/paths';

const README_MAX_LINES = 300;

describe('README.md', () => {
  it(`stays within ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(projectRoot, 'README.md'), 'utf8').replace(/\n$/, '').split('\n');
    expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
  });
});
