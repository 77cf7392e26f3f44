// The state a running `npm start` leaves for the admin CLI (bin/devState.ts): DATA_DIR/dev.json names its database
// and Temporal; the admin CLI, given no DATABASE_URL, takes them from there while that process lives, and says so.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env';
import { adoptRunningDevStack, devStatePath, runningDevState, writeDevState, type DevState } from '../../bin/devState';

let dataDir: string;
const state = (pid: number): DevState => ({
  pid,
  databaseUrl: 'postgres://postgres:postgres@127.0.0.1:5433/checkout',
  temporalAddress: '127.0.0.1:7299',
  temporalNamespace: 'dev',
});

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'dev-state-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the npm start state file', () => {
  it('is readable by its owner only and gone once removed', () => {
    const remove = writeDevState(dataDir, state(process.pid));
    expect(statSync(devStatePath(dataDir)).mode & 0o777).toBe(0o600);
    expect(runningDevState(dataDir)).toEqual(state(process.pid));
    remove();
    expect(runningDevState(dataDir)).toBeUndefined();
  });

  it('is ignored once its process is gone (a killed npm start)', () => {
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeDevState(dataDir, state(Number(ended.stdout)));
    expect(runningDevState(dataDir)).toBeUndefined();
  });
});

describe('the admin configuration beside a running npm start', () => {
  it('takes its database and Temporal when DATABASE_URL is unset, and says so', () => {
    writeDevState(dataDir, state(process.pid));
    const notes: string[] = [];
    const config = adoptRunningDevStack(loadConfig({ DATA_DIR: dataDir }, 'admin'), {}, (line) => notes.push(line));
    expect(config.databaseUrl).toBe(state(process.pid).databaseUrl);
    expect(config.temporal).toMatchObject({ address: '127.0.0.1:7299', namespace: 'dev' });
    expect(notes).toEqual([
      `DATABASE_URL is unset: using the running npm start's database and Temporal (process ${process.pid}, ${devStatePath(dataDir)})`,
    ]);
  });

  it('keeps what the environment sets', () => {
    writeDevState(dataDir, state(process.pid));
    const notes: string[] = [];
    const env = { DATA_DIR: dataDir, DATABASE_URL: 'postgres://elsewhere/db' };
    expect(adoptRunningDevStack(loadConfig(env, 'admin'), env, (line) => notes.push(line)).databaseUrl).toBe('postgres://elsewhere/db');
    const temporalSet = { DATA_DIR: dataDir, TEMPORAL_ADDRESS: '10.0.0.5:7233' };
    expect(adoptRunningDevStack(loadConfig(temporalSet, 'admin'), temporalSet, (line) => notes.push(line)).temporal.address).toBe(
      '10.0.0.5:7233',
    );
  });

  it("connects to npm start's dev server in plaintext, and with TEMPORAL_TLS_* only to the server TEMPORAL_ADDRESS names", () => {
    writeDevState(dataDir, state(process.pid));
    const env = { DATA_DIR: dataDir, TEMPORAL_API_KEY: 'cloud-key' };
    expect(adoptRunningDevStack(loadConfig(env, 'admin'), env, () => undefined).temporal).toMatchObject({
      address: '127.0.0.1:7299',
      tls: undefined,
      apiKey: undefined,
    });
    const remote = { ...env, TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233' };
    expect(adoptRunningDevStack(loadConfig(remote, 'admin'), remote, () => undefined).temporal).toMatchObject({
      address: 'ns.acct.tmprl.cloud:7233',
      tls: {},
      apiKey: 'cloud-key',
    });
  });

  it('changes nothing without a running npm start', () => {
    const config = loadConfig({ DATA_DIR: dataDir }, 'admin');
    expect(adoptRunningDevStack(config, {}, () => undefined)).toBe(config);
  });
});
