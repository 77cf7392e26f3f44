import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ARTIFACTS, artifactPath, REBUILD_COMMAND, renderArtifact } from '../../toolchain/solidity/contractArtifacts';

describe('committed contract artifacts', () => {
  test.each(ARTIFACTS)('contracts/artifacts/$module.ts is what solc builds from contracts/$contract.sol ($vm)', async (artifact) => {
    const committed = readFileSync(artifactPath(artifact.module), 'utf8');
    expect(committed, `rebuild with \`${REBUILD_COMMAND}\` and commit the result (every deposit address moves with it)`).toBe(
      await renderArtifact(artifact),
    );
  });
});
