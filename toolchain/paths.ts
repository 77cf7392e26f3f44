import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = dirname(dirname(fileURLToPath(import.meta.url)));
/** Everything the project downloads or builds for itself lives here (git-ignored). */
export const toolsDir = process.env.CHECKOUT_TOOLS_DIR ?? join(projectRoot, '.tools');

export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
/** v1.5.1 embeds Temporal Server 1.29.1 and Web UI 2.42.1; later tags carry a go.mod `replace` that `go install pkg@version` refuses. */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';

export const testServerDir = join(toolsDir, 'test-server');
export const testServerLibDir = join(testServerDir, 'lib');
export const testServerArchive = join(testServerDir, 'classes.jsa');
export const testServerPom = join(projectRoot, 'toolchain', 'test-server', 'pom.xml');
/** Takes `<port> [--enable-time-skipping]`, as the Temporal SDK expects of an 'existing-path' test server. */
export const testServerWrapper = join(projectRoot, 'toolchain', 'bin', 'temporal-test-server');

export function onPath(command: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** TEMPORAL_CLI_PATH, then the project's own build, then a `temporal` on PATH. */
export function findTemporalCli(): string | undefined {
  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv) return fromEnv;
  const built = join(toolsDir, 'bin', 'temporal');
  if (existsSync(built)) return built;
  return onPath('temporal');
}

export function testServerInstalled(): boolean {
  return existsSync(join(testServerDir, 'installed.stamp'));
}
