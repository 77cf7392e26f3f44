// Provisions the tools that do not come from npm, idempotently, into .tools/:
//   - the Temporal CLI (dev server + Web UI), built from the Go module proxy;
//   - the Java time-skipping test server's classpath, resolved from Maven Central, plus an AppCDS archive;
//   - Debian's Chromium, which the hosted checkout page's browser tests drive (test/page/).
// A missing toolchain is reported in one line and left to the Temporal SDK's own download (needs internet).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, waitForPort } from './ports';
import {
  findTemporalCli,
  onPath,
  TEMPORAL_CLI_MODULE,
  TEMPORAL_CLI_VERSION,
  testServerArchive,
  testServerDir,
  testServerLibDir,
  testServerPom,
  testServerWrapper,
  toolsDir,
} from './paths';

const say = (line: string) => console.log(`  ${line}`);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function provisionTemporalCli(): void {
  const existing = findTemporalCli();
  if (existing) {
    say(`Temporal CLI: ${existing}`);
    return;
  }
  const go = onPath('go');
  if (!go) {
    say(
      `✖ go not found: cannot build the Temporal CLI ${TEMPORAL_CLI_VERSION}; install Go or set TEMPORAL_CLI_PATH (falling back to the Temporal SDK's download, which needs internet)`,
    );
    return;
  }
  const started = Date.now();
  say(`Temporal CLI: go install ${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION} (first build takes several minutes)…`);
  const result = spawnSync(go, ['install', `${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}`], {
    stdio: 'inherit',
    env: { ...process.env, GOBIN: join(toolsDir, 'bin'), GOFLAGS: '-mod=mod', CGO_ENABLED: '0' },
  });
  if (result.status !== 0) throw new Error(`go install of the Temporal CLI failed (exit ${result.status})`);
  say(`Temporal CLI: built in ${seconds(started)}`);
}

function provisionTestServerClasspath(): boolean {
  const pomDigest = createHash('sha256').update(readFileSync(testServerPom)).digest('hex');
  const stamp = join(testServerDir, 'installed.stamp');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === pomDigest) {
    say(`Temporal test server: ${testServerLibDir}`);
    return true;
  }
  const missing = ['java', 'mvn'].filter((tool) => !onPath(tool));
  if (missing.length > 0) {
    say(
      `✖ ${missing.join(' and ')} not found: cannot fetch the Java time-skipping test server; install a JDK 17+ and Maven (falling back to the Temporal SDK's download, which needs internet)`,
    );
    return false;
  }
  const started = Date.now();
  say('Temporal test server: resolving io.temporal:temporal-test-server from Maven Central…');
  rmSync(testServerDir, { recursive: true, force: true });
  mkdirSync(testServerDir, { recursive: true });
  const result = spawnSync(
    'mvn',
    ['-B', '-q', '-f', testServerPom, 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${testServerLibDir}`],
    { encoding: 'utf8' },
  );
  // Maven's quiet mode still writes terminal escape codes; its output is only worth showing on failure.
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error(`mvn could not resolve the Temporal test server (exit ${result.status})`);
  }
  writeFileSync(stamp, pomDigest);
  say(`Temporal test server: classpath resolved in ${seconds(started)}`);
  return true;
}

/** Runs the server once with -XX:ArchiveClassesAtExit so later starts map the loaded classes instead of parsing jars. */
async function provisionTestServerArchive(): Promise<void> {
  if (existsSync(testServerArchive)) return;
  const started = Date.now();
  say('Temporal test server: writing the JVM class-data archive (AppCDS)…');
  const port = await freePort();
  const child = spawn(testServerWrapper, [String(port), '--enable-time-skipping'], {
    stdio: 'ignore',
    env: { ...process.env, TEMPORAL_TEST_SERVER_DUMP_ARCHIVE: '1' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitForPort(port, 30_000);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  say(
    existsSync(testServerArchive)
      ? `Temporal test server: archive written in ${seconds(started)}`
      : 'Temporal test server: this JVM wrote no archive; starts will be slower',
  );
}

const CHROMIUM = '/usr/bin/chromium';

/** Installed with apt only where that is possible without asking (root with apt-get); otherwise named once. */
function provisionChromium(): void {
  if (existsSync(CHROMIUM)) {
    say(`Chromium: ${CHROMIUM}`);
    return;
  }
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    say(`✖ ${CHROMIUM} not found: the hosted checkout page tests (test/page/) need it; install Debian's chromium package`);
    return;
  }
  const started = Date.now();
  say('Chromium: apt-get update && apt-get install -y chromium…');
  for (const args of [['update'], ['install', '-y', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    // Like the other tools, a failed install is reported, not fatal: only the page tests need Chromium.
    if (result.status !== 0) {
      say(`✖ apt-get ${args.join(' ')} failed (exit ${result.status}): the hosted checkout page tests (test/page/) need ${CHROMIUM}`);
      return;
    }
  }
  say(`Chromium: installed in ${seconds(started)}`);
}

provisionTemporalCli();
if (provisionTestServerClasspath()) await provisionTestServerArchive();
provisionChromium();
