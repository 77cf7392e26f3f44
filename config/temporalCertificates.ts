// The certificates of Temporal's mutual TLS in docker-compose.yml (docs/operations.md#temporal-mtls): two CAs, the
// Temporal server's certificate, and one client certificate per process that talks to Temporal, each written to
// a folder of its own, which compose mounts into that process's container alone. Made once: a later run keeps
// every certificate still issued by the CAs and valid for another 30 days, and issues only what is missing.
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPair, issueCertificate, type ExtendedKeyUsage } from '../domain/security/x509';

/** The name every client checks the server's certificate for (TEMPORAL_TLS_SERVER_NAME), its compose host name. */
export const TEMPORAL_SERVER_NAME = 'temporal';

/** Who talks to Temporal, each with its own certificate. */
export const TEMPORAL_CLIENT_IDENTITIES = [
  'api',
  'worker',
  'webhook-worker',
  'signer-test',
  'signer-live',
  'indexer',
  'admin',
  'temporal-ui',
  'temporal-admin-tools',
] as const;
export type TemporalClientIdentity = (typeof TEMPORAL_CLIENT_IDENTITIES)[number];
export type TemporalIdentity = TemporalClientIdentity | typeof TEMPORAL_SERVER_NAME;

const DAY_MS = 24 * 3600 * 1000;
const CA_DAYS = 3650;
const LEAF_DAYS = 825;
const RENEW_WITHIN_DAYS = 30;

/**
 * Separate CAs: the server CA signs the server's certificate, which the frontend shows and its internal services
 * present to one another; the client CA signs the processes'. The internal services trust the server CA alone,
 * so a process's certificate opens the frontend and never the history or matching service.
 */
const CAS = { server: 'temporal-server-ca', client: 'temporal-client-ca' } as const;

interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}
interface Authority extends KeyPair {
  commonName: string;
  pem: string;
}

export interface CertificateFiles {
  /** The folder of an identity: the CA it checks its peer with (`ca.pem`), `<identity>.pem` and `<identity>.key`. */
  dir: string;
  certificate: string;
  key: string;
  ca: string;
}

/** Where the files of an identity are under `root`; the server's folder also holds the client CA (`client-ca.pem`). */
export function certificateFiles(root: string, identity: TemporalIdentity): CertificateFiles {
  const dir = join(root, identity);
  return { dir, certificate: join(dir, `${identity}.pem`), key: join(dir, `${identity}.key`), ca: join(dir, 'ca.pem') };
}

function loadOrCreateAuthority(caDir: string, commonName: string, now: Date, issued: string[]): Authority {
  const [certPath, keyPath] = [join(caDir, `${commonName}.pem`), join(caDir, `${commonName}.key`)];
  if (existsSync(certPath) && existsSync(keyPath)) {
    const privateKey = createPrivateKey(readFileSync(keyPath));
    return { commonName, pem: readFileSync(certPath, 'utf8'), privateKey, publicKey: createPublicKey(privateKey) };
  }
  const keys = generateKeyPair();
  const pem = issueCertificate({
    commonName,
    publicKey: keys.publicKey,
    issuer: { commonName, ...keys },
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + CA_DAYS * DAY_MS),
    isCa: true,
  });
  writeFileSync(keyPath, keys.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(certPath, pem, { mode: 0o644 });
  issued.push(commonName);
  return { commonName, pem, ...keys };
}

/** Still good: issued by this CA, and not expiring within the renewal window. */
function stillGood(files: CertificateFiles, authority: Authority, now: Date): boolean {
  if (!existsSync(files.certificate) || !existsSync(files.key)) return false;
  const certificate = new X509Certificate(readFileSync(files.certificate));
  return (
    certificate.checkIssued(new X509Certificate(authority.pem)) &&
    certificate.verify(authority.publicKey) &&
    new Date(certificate.validTo).getTime() > now.getTime() + RENEW_WITHIN_DAYS * DAY_MS &&
    certificate.checkPrivateKey(createPrivateKey(readFileSync(files.key)))
  );
}

export interface EnsureOptions {
  now?: Date;
  /** The uid each identity's container runs as; given, its key is handed to that user (the maker runs as root). */
  owners?: Partial<Record<TemporalIdentity, number>>;
}

/** Makes what is missing under `root` (`root/ca` holds the CAs' keys) and answers what it issued. */
export function ensureTemporalCertificates(root: string, options: EnsureOptions = {}): string[] {
  const now = options.now ?? new Date();
  const issued: string[] = [];
  const caDir = join(root, 'ca');
  mkdirSync(caDir, { recursive: true, mode: 0o700 });
  const serverCa = loadOrCreateAuthority(caDir, CAS.server, now, issued);
  const clientCa = loadOrCreateAuthority(caDir, CAS.client, now, issued);

  const identities: Array<[TemporalIdentity, Authority, ExtendedKeyUsage[], string[]]> = [
    // The internal services present it to each other and, as clients, to the frontend: both usages.
    [TEMPORAL_SERVER_NAME, serverCa, ['serverAuth', 'clientAuth'], [TEMPORAL_SERVER_NAME]],
    ...TEMPORAL_CLIENT_IDENTITIES.map((identity): [TemporalIdentity, Authority, ExtendedKeyUsage[], string[]] => [
      identity,
      clientCa,
      ['clientAuth'],
      [],
    ]),
  ];
  for (const [identity, authority, usages, dnsNames] of identities) {
    const files = certificateFiles(root, identity);
    mkdirSync(files.dir, { recursive: true });
    const owner = options.owners?.[identity];
    writeFileSync(files.ca, serverCa.pem, { mode: 0o644 });
    if (identity === TEMPORAL_SERVER_NAME) writeFileSync(join(files.dir, 'client-ca.pem'), clientCa.pem, { mode: 0o644 });
    if (!stillGood(files, authority, now)) {
      const keys = generateKeyPair();
      const pem = issueCertificate({
        commonName: identity,
        publicKey: keys.publicKey,
        issuer: authority,
        notBefore: new Date(now.getTime() - 60_000),
        notAfter: new Date(now.getTime() + LEAF_DAYS * DAY_MS),
        isCa: false,
        extendedKeyUsage: usages,
        dnsNames,
      });
      writeFileSync(files.key, keys.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      writeFileSync(files.certificate, pem, { mode: 0o644 });
      issued.push(identity);
    }
    if (owner === undefined) continue;
    chownSync(files.dir, owner, owner);
    for (const file of readdirSync(files.dir)) chownSync(join(files.dir, file), owner, owner);
  }
  return issued;
}
