import { X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/env';
import { certificateFiles, ensureTemporalCertificates, TEMPORAL_CLIENT_IDENTITIES } from '../../config/temporalCertificates';
import { temporalConnectionOptions } from '../../config/temporalTls';

const root = mkdtempSync(join(tmpdir(), 'temporal-tls-config-'));
ensureTemporalCertificates(root);
const api = certificateFiles(root, 'api');
const worker = certificateFiles(root, 'worker');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const temporalOf = (env: NodeJS.ProcessEnv) => loadConfig(env, 'api').temporal;

describe('Temporal TLS configuration', () => {
  it('is plaintext with none of the variables, as npm start and the tests connect', () => {
    const temporal = temporalOf({ TEMPORAL_ADDRESS: 'temporal:7233' });
    expect(temporal.tls).toBeUndefined();
    expect(temporalConnectionOptions(temporal)).toEqual({ address: 'temporal:7233' });
  });

  it('reads the CA, the client certificate and its key at load, with the server name the certificate is checked for', () => {
    const temporal = temporalOf({
      TEMPORAL_ADDRESS: 'temporal:7233',
      TEMPORAL_TLS_CA: api.ca,
      TEMPORAL_TLS_CERT: api.certificate,
      TEMPORAL_TLS_KEY: api.key,
      TEMPORAL_TLS_SERVER_NAME: 'temporal',
    });
    expect(temporalConnectionOptions(temporal)).toEqual({
      address: 'temporal:7233',
      tls: {
        serverNameOverride: 'temporal',
        serverRootCACertificate: readFileSync(api.ca),
        clientCertPair: { crt: readFileSync(api.certificate), key: readFileSync(api.key) },
      },
    });
  });

  it('wants the certificate and its key together, naming the one missing', () => {
    expect(() => temporalOf({ TEMPORAL_TLS_CERT: api.certificate })).toThrow(/TEMPORAL_TLS_KEY: is needed with TEMPORAL_TLS_CERT/);
    expect(() => temporalOf({ TEMPORAL_TLS_KEY: api.key })).toThrow(/TEMPORAL_TLS_CERT: is needed with TEMPORAL_TLS_KEY/);
  });

  it('refuses files it cannot read or parse, a key of another certificate, and an expired certificate, naming the variable', () => {
    const dir = mkdtempSync(join(root, 'bad-'));
    const notPem = join(dir, 'not.pem');
    writeFileSync(notPem, 'hello');
    expect(() => temporalOf({ TEMPORAL_TLS_CA: join(dir, 'missing.pem') })).toThrow(/TEMPORAL_TLS_CA: cannot read .*missing\.pem: ENOENT/);
    expect(() => temporalOf({ TEMPORAL_TLS_CA: notPem })).toThrow(/TEMPORAL_TLS_CA: .*not\.pem is not a PEM certificate/);
    expect(() => temporalOf({ TEMPORAL_TLS_CERT: notPem, TEMPORAL_TLS_KEY: api.key })).toThrow(
      /TEMPORAL_TLS_CERT: .* is not a PEM certificate/,
    );
    expect(() => temporalOf({ TEMPORAL_TLS_CERT: api.certificate, TEMPORAL_TLS_KEY: notPem })).toThrow(
      /TEMPORAL_TLS_KEY: .* is not a PEM private key/,
    );
    expect(() => temporalOf({ TEMPORAL_TLS_CERT: api.certificate, TEMPORAL_TLS_KEY: worker.key })).toThrow(
      /TEMPORAL_TLS_KEY: .* is not the key of the certificate in TEMPORAL_TLS_CERT/,
    );
    // Certificates made 900 days ago have expired: leaves last 825 days.
    const old = mkdtempSync(join(root, 'old-'));
    ensureTemporalCertificates(old, { now: new Date(Date.now() - 900 * 24 * 3600 * 1000) });
    const expired = certificateFiles(old, 'api');
    expect(() => temporalOf({ TEMPORAL_TLS_CERT: expired.certificate, TEMPORAL_TLS_KEY: expired.key })).toThrow(
      /TEMPORAL_TLS_CERT: .* expired on /,
    );
  });

  it('with an API key alone, connects over TLS with the system roots and sends the key', () => {
    const temporal = temporalOf({ TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233', TEMPORAL_API_KEY: 'key-from-cloud' });
    expect(temporalConnectionOptions(temporal)).toEqual({ address: 'ns.acct.tmprl.cloud:7233', tls: {}, apiKey: 'key-from-cloud' });
  });

  it('in production, refuses every process that connects to Temporal without a client certificate or an API key', () => {
    const production = {
      APP_ENV: 'production',
      TEMPORAL_ADDRESS: 'temporal:7233',
      TEMPORAL_TLS_CA: api.ca,
      TEMPORAL_TLS_SERVER_NAME: 'temporal',
      SIGNER_MODE: 'test',
    };
    for (const process of ['api', 'worker', 'webhookWorker', 'indexer', 'signer', 'admin'] as const) {
      expect(() => loadConfig(production, process), process).toThrow(ConfigError);
      expect(() => loadConfig(production, process), process).toThrow(
        `TEMPORAL_TLS_CERT: is required with TEMPORAL_TLS_KEY when APP_ENV=production: the ${process} connects to Temporal over mutual TLS (or set TEMPORAL_API_KEY for Temporal Cloud)`,
      );
      const withCertificate = loadConfig({ ...production, TEMPORAL_TLS_CERT: api.certificate, TEMPORAL_TLS_KEY: api.key }, process);
      expect(withCertificate.temporal.tls?.clientCertPair, process).toBeDefined();
      expect(loadConfig({ ...production, TEMPORAL_API_KEY: 'key-from-cloud' }, process).temporal.apiKey, process).toBe('key-from-cloud');
    }
    // Half a pair names the half missing, as outside production.
    expect(() => loadConfig({ ...production, TEMPORAL_TLS_CERT: api.certificate }, 'api')).toThrow(
      /TEMPORAL_TLS_KEY: is needed with TEMPORAL_TLS_CERT/,
    );
  });

  it('outside production, and for migrate and npm start in production, stays plaintext when nothing is set', () => {
    for (const appEnv of ['development', 'test']) expect(loadConfig({ APP_ENV: appEnv }, 'api').temporal.tls, appEnv).toBeUndefined();
    expect(loadConfig({}, 'worker').temporal.tls).toBeUndefined();
    for (const process of ['migrate', 'dev'] as const)
      expect(loadConfig({ APP_ENV: 'production' }, process).temporal.tls, process).toBeUndefined();
  });
});

describe('the certificates compose makes (temporal-certs)', () => {
  it('gives every client its own certificate from the client CA, and the server one from the server CA with its name', () => {
    const caDir = join(root, 'ca');
    const serverCa = new X509Certificate(readFileSync(join(caDir, 'temporal-server-ca.pem')));
    const clientCa = new X509Certificate(readFileSync(join(caDir, 'temporal-client-ca.pem')));
    expect([serverCa.ca, clientCa.ca]).toEqual([true, true]);
    const server = new X509Certificate(readFileSync(certificateFiles(root, 'temporal').certificate));
    expect(server.checkIssued(serverCa) && server.verify(serverCa.publicKey)).toBe(true);
    expect(server.subjectAltName).toBe('DNS:temporal');
    expect(server.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    const fingerprints = new Set<string>();
    for (const identity of TEMPORAL_CLIENT_IDENTITIES) {
      const files = certificateFiles(root, identity);
      const certificate = new X509Certificate(readFileSync(files.certificate));
      expect(certificate.subject, identity).toContain(`CN=${identity}`);
      expect(certificate.ca, identity).toBe(false);
      expect(certificate.checkIssued(clientCa) && certificate.verify(clientCa.publicKey), identity).toBe(true);
      expect(certificate.checkIssued(serverCa), identity).toBe(false);
      expect(certificate.keyUsage, identity).toEqual(['1.3.6.1.5.5.7.3.2']);
      // A client checks the server with the server CA.
      expect(readFileSync(files.ca, 'utf8'), identity).toBe(serverCa.toString());
      fingerprints.add(certificate.fingerprint256);
    }
    expect(fingerprints.size).toBe(TEMPORAL_CLIENT_IDENTITIES.length);
  });

  it('makes them once: a second run issues nothing, a certificate expiring within 30 days or of another CA is reissued', () => {
    const dir = mkdtempSync(join(root, 'again-'));
    const day = 24 * 3600 * 1000;
    ensureTemporalCertificates(dir, { now: new Date(Date.now() - 800 * day) });
    expect(ensureTemporalCertificates(dir, { now: new Date(Date.now() - 700 * day) })).toEqual([]);
    // 800 days on, the 825-day leaves expire within 30 days; the 10-year CAs stay.
    const reissued = ensureTemporalCertificates(dir);
    expect(reissued).toEqual(['temporal', ...TEMPORAL_CLIENT_IDENTITIES]);
    copyFileSync(certificateFiles(root, 'signer-test').certificate, certificateFiles(dir, 'signer-test').certificate);
    expect(ensureTemporalCertificates(dir)).toEqual(['signer-test']);
  });
});
