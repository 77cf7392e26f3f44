// Temporal's mutual TLS, end to end with the production code: the certificates compose's `temporal-certs` makes
// (config/temporalCertificates.ts), read and checked by loadConfig, and the options every process connects with
// (config/temporalTls.ts). The Temporal dev server has no TLS, so the frontend here is a STAND-IN: a mutual-TLS
// terminator (node's tls server requiring a client certificate of the CAs Temporal's frontend trusts in compose,
// TEMPORAL_TLS_CLIENT1_CA_CERT and _CLIENT2_) in front of the plaintext dev server. It shows what the clients
// do; that the real server is configured to require client certificates is checked in test/ops/compose.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, test, inject } from 'vitest';
import { loadConfig } from '../../config/env';
import { certificateFiles, ensureTemporalCertificates, TEMPORAL_SERVER_NAME } from '../../config/temporalCertificates';
import { temporalConnectionOptions } from '../../config/temporalTls';

const root = mkdtempSync(join(tmpdir(), 'temporal-certs-'));
const otherRoot = mkdtempSync(join(tmpdir(), 'temporal-certs-other-'));
let standIn: Server;
let standInAddress: string;
/** Handshakes the stand-in refused: proof a failure below is the client certificate's, not something else. */
const refusedHandshakes: string[] = [];

beforeAll(async () => {
  ensureTemporalCertificates(root);
  // Another deployment's CAs and certificates: the same shape, signed by CAs this frontend does not trust.
  ensureTemporalCertificates(otherRoot);
  const server = certificateFiles(root, TEMPORAL_SERVER_NAME);
  const [devHost = '', devPort = ''] = inject('temporalAddress').split(':');
  standIn = createServer(
    {
      cert: readFileSync(server.certificate),
      key: readFileSync(server.key),
      ca: [readFileSync(join(server.dir, 'client-ca.pem')), readFileSync(server.ca)],
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (socket) => {
      const upstream = netConnect(Number(devPort), devHost);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    },
  );
  standIn.on('tlsClientError', (error) => refusedHandshakes.push(error.message));
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  const address = standIn.address();
  standInAddress = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => standIn?.close(resolve));
  rmSync(root, { recursive: true, force: true });
  rmSync(otherRoot, { recursive: true, force: true });
});

/** The signer's environment in compose, its /certs folder here. */
function signerEnv(certificates: { ca: string; certificate?: string; key?: string }): NodeJS.ProcessEnv {
  return {
    SIGNER_MODE: 'test',
    TEMPORAL_ADDRESS: standInAddress,
    TEMPORAL_TLS_CA: certificates.ca,
    TEMPORAL_TLS_SERVER_NAME: TEMPORAL_SERVER_NAME,
    ...(certificates.certificate ? { TEMPORAL_TLS_CERT: certificates.certificate } : {}),
    ...(certificates.key ? { TEMPORAL_TLS_KEY: certificates.key } : {}),
  };
}

const options = (env: NodeJS.ProcessEnv) => temporalConnectionOptions(loadConfig(env, 'signer').temporal);

describe('Temporal mutual TLS (through a stand-in mTLS terminator, not a Temporal server with TLS)', () => {
  test('with its own certificate, a process connects as a client and as a worker, and starts and describes a workflow', async () => {
    const signer = certificateFiles(root, 'signer-test');
    const env = signerEnv(signer);
    const connection = await Connection.connect(options(env));
    try {
      const client = new Client({ connection });
      const workflowId = `mtls-probe-${Date.now()}`;
      const handle = await client.workflow.start('mtlsProbe', { taskQueue: `mtls-probe-${Date.now()}`, workflowId });
      expect((await handle.describe()).status.name).toBe('RUNNING');
      await handle.terminate('mTLS probe done');
    } finally {
      await connection.close();
    }
    const native = await NativeConnection.connect(options(env));
    await native.close();
  });

  test('without a client certificate, the connection is refused', async () => {
    const before = refusedHandshakes.length;
    const env = signerEnv({ ca: certificateFiles(root, 'signer-test').ca });
    expect(options(env).tls?.clientCertPair).toBeUndefined();
    await expect(Connection.connect({ ...options(env), connectTimeout: 3_000 })).rejects.toThrow();
    await expect(NativeConnection.connect(options(env))).rejects.toThrow();
    expect(refusedHandshakes.length).toBeGreaterThan(before);
  });

  test("with a certificate of another deployment's CA, the connection is refused", async () => {
    const before = refusedHandshakes.length;
    const foreign = certificateFiles(otherRoot, 'signer-test');
    // It trusts this deployment's server, so only its own certificate stands in the way.
    const env = signerEnv({ ca: certificateFiles(root, 'signer-test').ca, certificate: foreign.certificate, key: foreign.key });
    await expect(Connection.connect({ ...options(env), connectTimeout: 3_000 })).rejects.toThrow();
    await expect(NativeConnection.connect(options(env))).rejects.toThrow();
    expect(refusedHandshakes.length).toBeGreaterThan(before);
  });

  test('a client that does not trust the server CA refuses the server, and plaintext gets nowhere', async () => {
    const signer = certificateFiles(root, 'signer-test');
    const env = signerEnv({ ca: certificateFiles(otherRoot, 'signer-test').ca, certificate: signer.certificate, key: signer.key });
    await expect(Connection.connect({ ...options(env), connectTimeout: 3_000 })).rejects.toThrow();
    await expect(Connection.connect({ address: standInAddress, connectTimeout: 3_000 })).rejects.toThrow();
  });
});
