// `npm run build-contracts`: rewrites contracts/artifacts/*.ts from contracts/*.sol. Run it after changing a
// contract, and commit the result with the change: every deposit address follows the new bytecode.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { projectRoot } from '../paths';
import { ARTIFACTS, artifactPath, renderArtifact } from './contractArtifacts';

for (const artifact of ARTIFACTS) {
  const path = artifactPath(artifact.module);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, await renderArtifact(artifact));
  console.log(`wrote ${relative(projectRoot, path)}`);
}
