// How every process connects to Temporal (docs/configuration.md#temporal-tls): the TLS material is read from
// TEMPORAL_TLS_* files and checked once, at start-up, so a missing file, a key of another certificate or an
// expired certificate stops the process naming the variable instead of failing on the first workflow call.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import type { ProcessName } from './signingMaterial';

export type TemporalTlsEnv = Partial<
  Record<'TEMPORAL_TLS_CA' | 'TEMPORAL_TLS_CERT' | 'TEMPORAL_TLS_KEY' | 'TEMPORAL_TLS_SERVER_NAME' | 'TEMPORAL_API_KEY', string>
>;

export interface TemporalConnectionSettings {
  address: string;
  /** Unset: plaintext, as `npm start`'s loopback dev server is. */
  tls: TLSConfig | undefined;
  /** Temporal Cloud's API keys, sent as a bearer token (and over TLS). */
  apiKey: string | undefined;
}

type Issue = { path: string[]; message: string };

const value = (env: TemporalTlsEnv, name: keyof TemporalTlsEnv) => env[name]?.trim() || undefined;

function readFile(name: string, path: string, issues: Issue[]): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    issues.push({ path: [name], message: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    return undefined;
  }
}

function parseCertificate(name: string, path: string, pem: Buffer, issues: Issue[], now: Date): X509Certificate | undefined {
  try {
    const certificate = new X509Certificate(pem);
    if (new Date(certificate.validTo) <= now) issues.push({ path: [name], message: `${path} expired on ${certificate.validTo}` });
    return certificate;
  } catch {
    issues.push({ path: [name], message: `${path} is not a PEM certificate` });
    return undefined;
  }
}

/**
 * The TLS and API-key options of the Temporal connection, or the problems with them. TLS is on when any of the
 * variables is set; the client certificate and its key come together or not at all.
 */
export function temporalTlsFromEnv(
  env: TemporalTlsEnv,
  now = new Date(),
): { tls: TLSConfig | undefined; apiKey: string | undefined; issues: Issue[] } {
  const issues: Issue[] = [];
  const [caPath, certPath, keyPath] = [value(env, 'TEMPORAL_TLS_CA'), value(env, 'TEMPORAL_TLS_CERT'), value(env, 'TEMPORAL_TLS_KEY')];
  const serverName = value(env, 'TEMPORAL_TLS_SERVER_NAME');
  const apiKey = value(env, 'TEMPORAL_API_KEY');
  if (!certPath !== !keyPath) {
    const [missing, given] = certPath ? ['TEMPORAL_TLS_KEY', 'TEMPORAL_TLS_CERT'] : ['TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_KEY'];
    issues.push({ path: [missing], message: `is needed with ${given}: set the client certificate and its key together, or neither` });
  }
  const ca = caPath ? readFile('TEMPORAL_TLS_CA', caPath, issues) : undefined;
  if (caPath && ca) parseCertificate('TEMPORAL_TLS_CA', caPath, ca, issues, now);
  let clientCertPair: TLSConfig['clientCertPair'];
  if (certPath && keyPath) {
    const crt = readFile('TEMPORAL_TLS_CERT', certPath, issues);
    const key = readFile('TEMPORAL_TLS_KEY', keyPath, issues);
    const certificate = crt && parseCertificate('TEMPORAL_TLS_CERT', certPath, crt, issues, now);
    if (key) {
      try {
        const privateKey = createPrivateKey(key);
        if (certificate && !certificate.checkPrivateKey(privateKey))
          issues.push({ path: ['TEMPORAL_TLS_KEY'], message: `${keyPath} is not the key of the certificate in TEMPORAL_TLS_CERT` });
      } catch {
        issues.push({ path: ['TEMPORAL_TLS_KEY'], message: `${keyPath} is not a PEM private key` });
      }
    }
    if (crt && key) clientCertPair = { crt, key };
  }
  const tlsOn = Boolean(caPath || certPath || keyPath || serverName || apiKey);
  const tls: TLSConfig | undefined = tlsOn
    ? {
        ...(serverName ? { serverNameOverride: serverName } : {}),
        ...(ca ? { serverRootCACertificate: ca } : {}),
        ...(clientCertPair ? { clientCertPair } : {}),
      }
    : undefined;
  return { tls, apiKey, issues };
}

/**
 * The processes that connect to Temporal with temporalConnectionOptions. `npm start` runs its own dev server on
 * loopback, in plaintext; migrate does not connect.
 */
const TEMPORAL_CLIENTS: ReadonlySet<ProcessName> = new Set(['api', 'worker', 'webhookWorker', 'indexer', 'signer', 'admin']);

/**
 * In production every client of Temporal shows a credential of its own, so a misconfigured process fails at start
 * instead of talking plaintext to a frontend that anyone on the network could also reach: a client certificate
 * (mutual TLS, docs/operations.md#temporal-mtls) or a Temporal Cloud API key.
 */
export function temporalProductionIssues(env: TemporalTlsEnv & { APP_ENV?: string }, process: ProcessName): Issue[] {
  if (env.APP_ENV?.trim() !== 'production' || !TEMPORAL_CLIENTS.has(process)) return [];
  if (value(env, 'TEMPORAL_TLS_CERT') || value(env, 'TEMPORAL_TLS_KEY') || value(env, 'TEMPORAL_API_KEY')) return [];
  return [
    {
      path: ['TEMPORAL_TLS_CERT'],
      message: `is required with TEMPORAL_TLS_KEY when APP_ENV=production: the ${process} connects to Temporal over mutual TLS (or set TEMPORAL_API_KEY for Temporal Cloud)`,
    },
  ];
}

/** What `NativeConnection.connect` and `Connection.connect` are given, in every process but `npm start`'s. */
export function temporalConnectionOptions(settings: TemporalConnectionSettings): {
  address: string;
  tls?: TLSConfig;
  apiKey?: string;
} {
  return {
    address: settings.address,
    ...(settings.tls ? { tls: settings.tls } : {}),
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  };
}
