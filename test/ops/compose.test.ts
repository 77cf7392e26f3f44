// docker-compose.yml and the Dockerfile, checked without a Docker engine: every service built from this
// repository runs an npm script that exists, has the configuration its process validates at start-up, and
// finds in the image every folder and package its code loads. `docker compose config` runs too where the
// Compose plugin exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, test } from 'vitest';
import { loadChainsConfig } from '../../config/chains';
import { depositXpubsFromSeeds } from '../../domain/addresses/hdDerivation';
import { depositSeeds } from '../../domain/addresses/depositSeed';
import { loadConfig, type ProcessName } from '../../config/env';
import { paymentOfferFromConfig } from '../../config/paymentOffer';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { SIGNING_VARIABLES } from '../../config/signingMaterial';
import { signerDepsFromConfig } from '../../signer/worker';
import { SERVICE_ROLES } from '../../db/serviceRoles';
import { projectRoot } from '../../toolchain/paths';
import { importGraph } from '../support/importGraph';
import {
  certificateFiles,
  ensureTemporalCertificates,
  TEMPORAL_CLIENT_IDENTITIES,
  TEMPORAL_SERVER_NAME,
  type TemporalIdentity,
} from '../../config/temporalCertificates';

interface ComposeService {
  build?: string | { context?: string };
  image?: string;
  user?: string;
  network_mode?: string;
  profiles?: string[];
  expose?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
  ports?: string[];
  networks?: string[];
  volumes?: string[];
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  init?: boolean;
}

const compose = parse(readFileSync(join(projectRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  networks: Record<string, { internal?: boolean }>;
};
const packageJson = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};
const dockerfile = readFileSync(join(projectRoot, 'Dockerfile'), 'utf8');

const built = Object.entries(compose.services).filter(([, service]) => {
  const context = typeof service.build === 'string' ? service.build : service.build?.context;
  return context === '.';
});

/** The npm script a service runs (`npm run <script>`). */
function scriptOf(service: ComposeService): string {
  const command = Array.isArray(service.command) ? service.command : (service.command ?? '').split(/\s+/);
  expect(command.slice(0, 2), `command ${JSON.stringify(command)}`).toEqual(['npm', 'run']);
  return command[2] ?? '';
}

/** What compose's `temporal-certs` makes, here: each container's /certs is its volume's folder under this root. */
const certRoot = mkdtempSync(join(tmpdir(), 'compose-temporal-certs-'));
ensureTemporalCertificates(certRoot);
afterAll(() => rmSync(certRoot, { recursive: true, force: true }));

/** Where temporal-certs mounts each volume: `temporal-certs-api` at /out/api. */
const certMakerMounts = new Map(
  (compose.services['temporal-certs']?.volumes ?? []).map((mount) => {
    const [volume = '', target = ''] = mount.split(':');
    return [volume, target];
  }),
);

/** The volume a service mounts at /certs. */
function certificateVolume(service: ComposeService): string | undefined {
  return (service.volumes ?? []).find((mount) => mount.split(':')[1] === '/certs')?.split(':')[0];
}

/** A /certs/… path of a service, at the file temporal-certs wrote into the volume mounted there. */
function certificatePath(service: ComposeService, path: string): string {
  const volume = certificateVolume(service);
  const target = volume && certMakerMounts.get(volume);
  expect(target, `${path}: /certs is a volume temporal-certs writes`).toMatch(/^\/out\//);
  return join(certRoot, (target ?? '').slice('/out/'.length), path.slice('/certs/'.length));
}

/** A value for every required variable, random-looking enough to pass the secret checks. */
const STAND_IN_SECRET = 'Zq7vP2xL9mWc4RtY8bNf3KdH6sJg1Ua5eT0iOp';
/** Where a variable has a shape of its own: the TOTP key's 32 bytes, a live mnemonic, and the xpubs the signer prints for it. */
const STAND_IN_MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const standInXpubs = depositXpubsFromSeeds(depositSeeds({ test: undefined, live: STAND_IN_MNEMONIC })).live!;
const STAND_INS: Record<string, string> = {
  TOTP_ENCRYPTION_KEY: 'V2oxpONtyD/oLtDwIpE3gNK9fIP4QR2hrk17s7qMgl4=',
  DEPOSIT_MNEMONIC_LIVE: STAND_IN_MNEMONIC,
  DEPOSIT_XPUB_EVM_LIVE: standInXpubs.evm,
  DEPOSIT_XPUB_TRON_LIVE: standInXpubs.tron,
};

/**
 * What Compose would pass, with `${VAR:?…}` filled by a stand-in value, `${VAR:-default}` by what the operator
 * set, else its default, and a bare `VAR:` by what the operator set, else nothing.
 */
function resolvedEnv(service: ComposeService, operator: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(service.environment ?? {})) {
    // A name without a value passes the operator's, and nothing when they set none.
    if (value === null) {
      if (operator[name] !== undefined) env[name] = operator[name];
      continue;
    }
    env[name] = String(value)
      .replace(/\$\{([A-Z0-9_]+):\?[^}]*\}/g, (_match, variable: string) => STAND_INS[variable] ?? STAND_IN_SECRET)
      .replace(/\$\{([A-Z0-9_]+):-([^}]*)\}/g, (_match, variable: string, fallback: string) => operator[variable] ?? fallback);
    if (env[name].startsWith('/certs/')) env[name] = certificatePath(service, env[name]);
  }
  return env;
}

/** The configuration each service validates: its process's own (config/signingMaterial.ts). */
const PROCESS_OF: Record<string, ProcessName> = {
  migrate: 'migrate',
  api: 'api',
  worker: 'worker',
  'webhook-worker': 'webhookWorker',
  'signer-test': 'signer',
  'signer-live': 'signer',
  indexer: 'indexer',
  admin: 'admin',
};

const REQUIRED_ENV: Record<string, string[]> = {
  migrate: ['DATABASE_URL'],
  api: [
    'APP_ENV',
    'DATABASE_URL',
    'TEMPORAL_ADDRESS',
    'TEMPORAL_NAMESPACE',
    'TEMPORAL_TASK_QUEUE',
    'SESSION_TOKEN_SECRET',
    'TOTP_ENCRYPTION_KEY',
    'PUBLIC_BASE_URL',
    'HOST',
    'PORT',
  ],
  worker: [
    'APP_ENV',
    'DATABASE_URL',
    'TEMPORAL_ADDRESS',
    'TEMPORAL_NAMESPACE',
    'TEMPORAL_TASK_QUEUE',
    'DEPOSIT_XPUB_EVM_LIVE',
    'DEPOSIT_XPUB_TRON_LIVE',
    'METRICS_HOST',
    'WORKER_METRICS_PORT',
  ],
  'signer-test': ['APP_ENV', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'TEMPORAL_TASK_QUEUE', 'SIGNER_MODE'],
  'signer-live': ['APP_ENV', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'TEMPORAL_TASK_QUEUE', 'SIGNER_MODE', 'DEPOSIT_MNEMONIC_LIVE'],
  indexer: ['APP_ENV', 'DATABASE_URL', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'METRICS_HOST', 'INDEXER_METRICS_PORT'],
  'webhook-worker': ['APP_ENV', 'DATABASE_URL', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'TEMPORAL_TASK_QUEUE'],
};

describe('docker-compose.yml', () => {
  test('migrate, api, worker, webhook worker, a signer per mode and indexer are separate services built from this repository', () => {
    expect(built.map(([name]) => name).sort()).toEqual([
      'admin',
      'api',
      'indexer',
      'migrate',
      'signer-live',
      'signer-test',
      'temporal-certs',
      'webhook-worker',
      'worker',
    ]);
  });

  test.each(built)('%s runs an npm script of package.json, through tsx (a runtime dependency)', (_name, service) => {
    const script = scriptOf(service);
    expect(Object.keys(packageJson.scripts)).toContain(script);
    expect(packageJson.scripts[script]).toMatch(/^tsx bin\/[\w-]+\.ts$/);
    expect(Object.keys(packageJson.dependencies)).toContain('tsx');
  });

  test.each(built.filter(([name]) => name in PROCESS_OF))(
    '%s has the environment its process needs, and that environment passes validation',
    async (name, service) => {
      const env = resolvedEnv(service);
      for (const variable of REQUIRED_ENV[name] ?? []) expect(env[variable], `${name}: ${variable}`).toBeTruthy();
      const config = loadConfig(env, PROCESS_OF[name]!);
      if (PROCESS_OF[name] === 'signer') await expect(signerDepsFromConfig(config, loadChainsConfig(env))).resolves.toBeDefined();
      expect(() => loadChainsConfig(env)).not.toThrow();
    },
  );

  test('the indexer is offered an RPC endpoint variable for every chain it can index, and long-running services get SIGTERM through an init', () => {
    const indexerEnv = Object.keys(compose.services.indexer?.environment ?? {});
    const apiEnv = Object.keys(compose.services.api?.environment ?? {});
    for (const chain of ['ETHEREUM', 'POLYGON', 'ARBITRUM', 'OPTIMISM', 'BASE', 'BSC', 'SOLANA', 'TRON']) {
      expect(indexerEnv).toContain(`RPC_URLS_${chain}_MAINNET`);
      // The API offers only the pairs of the chains the indexer watches: it is given the same list.
      expect(apiEnv).toContain(`RPC_URLS_${chain}_MAINNET`);
    }
    for (const name of ['api', 'worker', 'webhook-worker', 'signer-test', 'signer-live', 'indexer'])
      expect(compose.services[name]?.init, name).toBe(true);
  });

  test('the api and the worker pass their start-up check of SETTLEMENT_LIVE_ROUTES once the operator sets what each route needs', () => {
    const offer = (name: 'api' | 'worker', operator: Record<string, string>) => {
      const env = resolvedEnv(compose.services[name]!, operator);
      return () => paymentOfferFromConfig(loadConfig(env, PROCESS_OF[name]!), createChainRegistry(loadChainsConfig(env)));
    };
    for (const name of ['api', 'worker'] as const) {
      // The default route USDC:solana and no endpoint: refused, naming the variable.
      expect(offer(name, {}), name).toThrow('set RPC_URLS_SOLANA_MAINNET');
      expect(offer(name, { RPC_URLS_SOLANA_MAINNET: 'https://solana.example' }), name).not.toThrow();
      const base = { SETTLEMENT_LIVE_ROUTES: 'USDC:solana,USDC:base', RPC_URLS_SOLANA_MAINNET: 'https://solana.example' };
      expect(offer(name, base), name).toThrow('set RPC_URLS_BASE_MAINNET');
      // USDC:base's route is CCTP: two RPC providers, the collector its deposits are swept into, the deposit contracts.
      const cctp = {
        ...base,
        RPC_URLS_BASE_MAINNET: 'https://base-one.example,https://base-two.example',
        EVM_DEPOSIT_COLLECTOR_LIVE: '0x00000000000000000000000000000000000000c0',
        EVM_DEPOSIT_FACTORY_LIVE: '0x00000000000000000000000000000000000000f0',
        EVM_DEPOSIT_FORWARDER_LIVE: '0x00000000000000000000000000000000000000f1',
      };
      const { EVM_DEPOSIT_COLLECTOR_LIVE: _collector, ...withoutCollector } = cctp;
      expect(offer(name, withoutCollector), name).toThrow('no DepositCollector on base: set EVM_DEPOSIT_COLLECTOR_LIVE');
      expect(offer(name, cctp), name).not.toThrow();
    }
  });

  test('the worker is given the Tron HTTP API its start-up check of a Tron factory needs, when the operator sets one', () => {
    const forwarders = {
      TRON_DEPOSIT_FACTORY_LIVE: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
      TRON_DEPOSIT_FORWARDER_LIVE: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    };
    const env = resolvedEnv(compose.services.worker!, { ...forwarders, TRON_HTTP_API_URL_MAINNET: 'https://api.trongrid.io' });
    expect(loadConfig(env, 'worker').depositForwarders.live.tron).toBeDefined();
    expect(loadChainsConfig(env).tronHttpApi.mainnet?.fullNodeUrl).toBe('https://api.trongrid.io');
    expect(Object.keys(resolvedEnv(compose.services.worker!))).not.toContain('TRON_HTTP_API_URL_MAINNET');
  });

  test('publishes only the API; Postgres and Temporal are on an internal network, the Temporal UI on loopback only', () => {
    const published = Object.entries(compose.services).filter(([, service]) => (service.ports ?? []).length > 0);
    expect(Object.fromEntries(published.map(([name, service]) => [name, service.ports]))).toEqual({
      api: ['3000:3000'],
      'temporal-ui': ['127.0.0.1:8233:8080'],
    });
    expect(compose.networks.backend?.internal).toBe(true);
    for (const name of ['postgres', 'temporal-postgres', 'temporal', 'temporal-search-attributes'])
      expect(compose.services[name]?.networks, name).toEqual(['backend']);
  });

  test('each process logs in as its own database role and gets only the secrets it uses', () => {
    const env = (name: string) => resolvedEnv(compose.services[name]!);
    const user = (name: string) => new URL(env(name).DATABASE_URL ?? '').username;
    expect(
      Object.fromEntries(
        ['migrate', 'api', 'worker', 'indexer', 'webhook-worker', 'signer-test', 'signer-live'].map((name) => [name, user(name)]),
      ),
    ).toEqual({
      migrate: 'checkout',
      api: 'checkout_api',
      worker: 'checkout_worker',
      indexer: 'checkout_indexer',
      'webhook-worker': 'checkout_webhooks',
      'signer-test': 'checkout_signer',
      'signer-live': 'checkout_signer',
    });
    const holders = (variable: string) => built.filter(([, service]) => variable in (service.environment ?? {})).map(([name]) => name);
    expect(holders('SESSION_TOKEN_SECRET')).toEqual(['api']);
    expect(holders('TOTP_ENCRYPTION_KEY')).toEqual(['api']);
    // The SMTP credentials go to the two processes that e-mail a refund's customer: the API the claim link, the worker
    // the reminder (docs/refunds.md#e-mail-to-the-customer).
    expect(holders('SMTP_URL')).toEqual(['api', 'worker']);
    expect(holders('EMAIL_FROM')).toEqual(['api', 'worker']);
    // Signing material goes to the signers alone, each mode's to its own; the worker gets the xpubs. The signers write
    // their payouts ahead through their own role and reach the Solana RPC they are sent through.
    expect(holders('DEPOSIT_MNEMONIC_LIVE')).toEqual(['signer-live']);
    expect(holders('DEPOSIT_MNEMONIC_TEST')).toEqual(['signer-test']);
    expect(holders('SOLANA_TREASURY_KEY_LIVE')).toEqual(['signer-live']);
    expect(holders('SOLANA_TREASURY_KEY_TEST')).toEqual(['signer-test']);
    for (const variable of SIGNING_VARIABLES) {
      const mode = variable.endsWith('_TEST') ? 'test' : 'live';
      expect(
        holders(variable).filter((name) => name !== `signer-${mode}`),
        variable,
      ).toEqual([]);
    }
    // Each is the signer of the mode it is named after, and none is handed a variable of the other mode.
    for (const mode of ['test', 'live'] as const) {
      const signerEnv = env(`signer-${mode}`);
      expect(signerEnv.SIGNER_MODE).toBe(mode);
      const other = mode === 'test' ? '_LIVE' : '_TEST';
      expect(
        Object.keys(compose.services[`signer-${mode}`]?.environment ?? {}).filter((name) => name.endsWith(other)),
        `signer-${mode}`,
      ).toEqual([]);
    }
    expect(holders('DEPOSIT_XPUB_EVM_LIVE')).toEqual(['worker']);
    // The worker reconciles the ledger with the chain from the treasury's public address, never its key.
    expect(holders('SOLANA_TREASURY_ADDRESS_LIVE')).toEqual(['worker']);
    expect(env('worker').RPC_URLS_SOLANA_MAINNET).toBeDefined();
    expect(compose.services['signer-test']?.networks).toEqual(['backend', 'egress']);
    expect(compose.services['signer-live']?.networks).toEqual(['backend', 'egress']);
    // The Postgres init script makes exactly the roles migrate grants to.
    expect(compose.services.postgres?.volumes).toContain(
      './deploy/postgres-service-roles.sh:/docker-entrypoint-initdb.d/10-service-roles.sh:ro',
    );
    const script = readFileSync(join(projectRoot, 'deploy/postgres-service-roles.sh'), 'utf8');
    expect([...script.matchAll(/create role (\w+) login password :'\w+'/g)].map((m) => m[1])).toEqual([...SERVICE_ROLES]);
  });

  test('docker compose config accepts the file where the Compose plugin exists', () => {
    const probe = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
    if (probe.status !== 0) {
      // No Compose here: the checks above are the whole verdict.
      expect(built.length).toBeGreaterThan(0);
      return;
    }
    execFileSync('docker', ['compose', 'config', '-q'], {
      cwd: projectRoot,
      env: {
        ...process.env,
        CHECKOUT_DB_PASSWORD: 'x',
        CHECKOUT_API_DB_PASSWORD: 'x',
        CHECKOUT_WORKER_DB_PASSWORD: 'x',
        CHECKOUT_INDEXER_DB_PASSWORD: 'x',
        CHECKOUT_SIGNER_DB_PASSWORD: 'x',
        CHECKOUT_WEBHOOKS_DB_PASSWORD: 'x',
        TEMPORAL_DB_PASSWORD: 'x',
        SESSION_TOKEN_SECRET: STAND_IN_SECRET,
        TOTP_ENCRYPTION_KEY: STAND_INS.TOTP_ENCRYPTION_KEY!,
        DEPOSIT_MNEMONIC_LIVE: 'x',
        DEPOSIT_XPUB_EVM_LIVE: 'x',
        DEPOSIT_XPUB_TRON_LIVE: 'x',
      },
    });
  });
});

/** Which identity's certificate each container that talks to Temporal shows. */
const TEMPORAL_CLIENTS: Record<string, TemporalIdentity> = {
  api: 'api',
  worker: 'worker',
  'webhook-worker': 'webhook-worker',
  'signer-test': 'signer-test',
  'signer-live': 'signer-live',
  indexer: 'indexer',
  admin: 'admin',
  'temporal-ui': 'temporal-ui',
  'temporal-search-attributes': 'temporal-admin-tools',
};

const readCertificate = (path: string) => new X509Certificate(readFileSync(path));
const dependsOn = (service: ComposeService | undefined) =>
  Array.isArray(service?.depends_on)
    ? Object.fromEntries(service.depends_on.map((name) => [name, undefined]))
    : (service?.depends_on ?? {});

describe('Temporal mutual TLS in docker-compose.yml (docs/operations.md#temporal-mtls)', () => {
  const server = compose.services.temporal!;
  const serverEnv = resolvedEnv(server);
  const caDir = join(certRoot, 'ca');
  const clientCa = readCertificate(join(caDir, 'temporal-client-ca.pem'));
  const serverCa = readCertificate(join(caDir, 'temporal-server-ca.pem'));

  test("temporal-certs makes every identity's certificate into its own volume, with no network, before Temporal starts", () => {
    const maker = compose.services['temporal-certs']!;
    expect(maker.network_mode).toBe('none');
    expect(Object.fromEntries(certMakerMounts)).toEqual(
      Object.fromEntries([
        ['temporal-ca', '/out/ca'],
        ...[TEMPORAL_SERVER_NAME, ...TEMPORAL_CLIENT_IDENTITIES].map((identity) => [`temporal-certs-${identity}`, `/out/${identity}`]),
      ]),
    );
    expect(dependsOn(server)['temporal-certs']).toEqual({ condition: 'service_completed_successfully' });
    // The CAs' keys never leave the maker's volume.
    const caHolders = Object.entries(compose.services).filter(([, service]) =>
      (service.volumes ?? []).some((mount) => mount.startsWith('temporal-ca:')),
    );
    expect(caHolders.map(([name]) => name)).toEqual(['temporal-certs']);
  });

  test('the Temporal server requires a client certificate on its frontend and between its own services', () => {
    expect(serverEnv.TEMPORAL_TLS_REQUIRE_CLIENT_AUTH).toBe('true');
    const own = certificateFiles(certRoot, TEMPORAL_SERVER_NAME);
    for (const name of ['TEMPORAL_TLS_FRONTEND_CERT', 'TEMPORAL_TLS_SERVER_CERT']) expect(serverEnv[name], name).toBe(own.certificate);
    for (const name of ['TEMPORAL_TLS_FRONTEND_KEY', 'TEMPORAL_TLS_SERVER_KEY']) expect(serverEnv[name], name).toBe(own.key);
    const certificate = readCertificate(own.certificate);
    expect(certificate.checkIssued(serverCa) && certificate.verify(serverCa.publicKey)).toBe(true);
    expect(certificate.subjectAltName).toBe(`DNS:${TEMPORAL_SERVER_NAME}`);
    // Clients are checked against the client CA; the internal services trust the server CA alone.
    expect(readFileSync(serverEnv.TEMPORAL_TLS_CLIENT1_CA_CERT ?? '', 'utf8')).toBe(clientCa.toString());
    expect(readFileSync(serverEnv.TEMPORAL_TLS_CLIENT2_CA_CERT ?? '', 'utf8')).toBe(serverCa.toString());
    expect(readFileSync(serverEnv.TEMPORAL_TLS_SERVER_CA_CERT ?? '', 'utf8')).toBe(serverCa.toString());
    for (const name of ['TEMPORAL_TLS_INTERNODE_SERVER_NAME', 'TEMPORAL_TLS_FRONTEND_SERVER_NAME', 'TEMPORAL_TLS_SERVER_NAME'])
      expect(serverEnv[name], name).toBe(TEMPORAL_SERVER_NAME);
    for (const name of ['TEMPORAL_TLS_INTERNODE_DISABLE_HOST_VERIFICATION', 'TEMPORAL_TLS_FRONTEND_DISABLE_HOST_VERIFICATION'])
      expect(serverEnv[name], name).toBe('false');
    // Its own setup and health check connect with its certificate too.
    expect([serverEnv.TEMPORAL_TLS_CERT, serverEnv.TEMPORAL_TLS_KEY]).toEqual([own.certificate, own.key]);
    expect(server.healthcheck?.test).toContain('temporal:7233');
  });

  test('every container that talks to Temporal shows a certificate of its own, from a volume no other container mounts', () => {
    const talking = Object.entries(compose.services)
      .filter(([name, service]) => {
        if (name === 'temporal') return false;
        if (service.image) return /^temporalio\/(ui|admin-tools):/.test(service.image);
        const graph = importGraph(projectRoot, [(packageJson.scripts[scriptOf(service)] ?? '').replace(/^tsx /, '')]);
        return graph.packages.has('@temporalio/client') || graph.packages.has('@temporalio/worker');
      })
      .map(([name]) => name);
    expect(talking.sort()).toEqual(Object.keys(TEMPORAL_CLIENTS).sort());
    const fingerprints = new Set<string>();
    for (const [name, identity] of Object.entries(TEMPORAL_CLIENTS)) {
      const service = compose.services[name]!;
      const env = resolvedEnv(service);
      expect(certificateVolume(service), name).toBe(`temporal-certs-${identity}`);
      expect(service.volumes, name).toContain(`temporal-certs-${identity}:/certs:ro`);
      const mounters = Object.entries(compose.services).filter(([, other]) =>
        (other.volumes ?? []).some((mount) => mount.startsWith(`temporal-certs-${identity}:`)),
      );
      expect(mounters.map(([other]) => other).sort(), name).toEqual([name, 'temporal-certs'].sort());
      expect(basename(env.TEMPORAL_TLS_CERT ?? ''), name).toBe(`${identity}.pem`);
      expect(env.TEMPORAL_TLS_SERVER_NAME, name).toBe(TEMPORAL_SERVER_NAME);
      const certificate = readCertificate(env.TEMPORAL_TLS_CERT ?? '');
      expect(certificate.subject, name).toContain(`CN=${identity}`);
      expect(certificate.checkIssued(clientCa) && certificate.verify(clientCa.publicKey), name).toBe(true);
      expect(readFileSync(env.TEMPORAL_TLS_CA ?? '', 'utf8'), name).toBe(serverCa.toString());
      fingerprints.add(certificate.fingerprint256);
      if (name in PROCESS_OF) {
        // The process reads and checks them at start, and connects with them.
        const { tls } = loadConfig(env, PROCESS_OF[name]!).temporal;
        expect(tls?.clientCertPair?.crt, name).toEqual(readFileSync(env.TEMPORAL_TLS_CERT ?? ''));
        expect(tls?.serverNameOverride, name).toBe(TEMPORAL_SERVER_NAME);
      }
    }
    expect(fingerprints.size).toBe(Object.keys(TEMPORAL_CLIENTS).length);
    // The UI checks the server's name only when asked to.
    expect(resolvedEnv(compose.services['temporal-ui']!).TEMPORAL_TLS_ENABLE_HOST_VERIFICATION).toBe('true');
  });

  test('no Temporal port is published outside the internal network', () => {
    expect(server.ports ?? []).toEqual([]);
    expect(server.networks).toEqual(['backend']);
    const temporalPorts = /(^|:)(7233|7234|7235|7239|6933|6934|6935|6939)$/;
    for (const [name, service] of Object.entries(compose.services))
      for (const port of service.ports ?? []) expect(port, `${name} publishes a Temporal port`).not.toMatch(temporalPorts);
  });
});

describe('Dockerfile', () => {
  const stages = dockerfile.match(/^FROM /gm) ?? [];
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const copied = [...finalStage.matchAll(/^COPY (?!--from)(.+)$/gm)].flatMap((match) => {
    const parts = (match[1] ?? '').trim().split(/\s+/);
    return parts.slice(0, -1);
  });

  const install = /^RUN (npm pkg delete devDependencies && npm ci --omit=dev[^\n]*)$/m.exec(dockerfile)?.[1];

  test('is multi-stage, installs production dependencies from the lockfile only, and runs as a non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(install, 'the install step is npm ci on the production dependencies').toBeDefined();
    expect(dockerfile).not.toMatch(/^RUN .*npm install/m);
    expect(finalStage).toMatch(/^USER (?!root)\w+/m);
  });

  test("the lockfile satisfies the image's npm ci (checked with --dry-run in a copy of package.json and the lockfile)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkout-npm-ci-'));
    try {
      for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(projectRoot, file), join(dir, file));
      const result = spawnSync('sh', ['-c', `${install ?? 'false'} --dry-run --loglevel=error`], { cwd: dir, encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('copies only paths that exist', () => {
    for (const path of copied) expect(existsSync(join(projectRoot, path)), path).toBe(true);
  });

  test('copies every top-level folder, and declares as dependencies every package, that the services load', () => {
    const entryPoints = built.map(([, service]) => (packageJson.scripts[scriptOf(service)] ?? '').replace(/^tsx /, ''));
    const graph = importGraph(projectRoot, entryPoints);
    const copiedFolders = copied.filter((path) => statSync(join(projectRoot, path)).isDirectory());
    expect(
      [...graph.topLevelFolders].filter((folder) => !copiedFolders.includes(folder)),
      'folders loaded but not copied',
    ).toEqual([]);
    expect(
      [...graph.packages].filter((name) => !(name in packageJson.dependencies)),
      'packages loaded but not in dependencies',
    ).toEqual([]);
  });
});
