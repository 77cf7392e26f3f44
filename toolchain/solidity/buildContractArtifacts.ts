// `npm run build-contracts`: rewrites contracts/artifacts/*.ts from contracts/*.sol. Run it after changing a
// contract, and commit the result with the change: every deposit address follows the new bytecode.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { projectRoot } from '../paths';
import { ARTIFACTS, artifactPath, renderArtifact } from './contractArtifacts';

for (const { contract, module } of ARTIFACTS) {
  const path = artifactPath(module);
  writeFileSync(path, await renderArtifact(contract));
  console.log(`wrote ${relative(projectRoot, path)}`);
}
