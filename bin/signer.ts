// The signer worker process: `npm run signer` with TEMPORAL_ADDRESS, SIGNER_MODE (test or live: one process per
// mode) and that mode's signing material (DEPOSIT_MNEMONIC_<MODE>, SOLANA_TREASURY_KEY_<MODE>, the relayer keys). It alone holds them
// (docs/settlement.md#r4-keys-in-the-signer-alone). It needs DATABASE_URL, and with a treasury key the mode's
// RPC_URLS_SOLANA_* (signer/worker.ts). `npm run signer -- --print-xpubs` prints the main worker's
// DEPOSIT_XPUB_* variables for these mnemonics, and the SOLANA_TREASURY_ADDRESS_* of its treasury keys (for the
// worker's reconciliation and the admin CLI), and exits.
import { NativeConnection } from '@temporalio/worker';
import { depositXpubsFromSeeds } from '../domain/addresses/hdDerivation';
import { keepSolanaAddressPoolAhead } from '../signer/depositAddresses/solanaAddressPool';
import type { SignerDeps } from '../signer/activities';
import { depositXpubVariables, loadConfig, requireDatabaseUrl } from '../config/env';
import { requireRoleRights } from '../db/serviceRoles';
import { temporalConnectionOptions } from '../config/temporalTls';
import { signerTaskQueue } from '../domain/taskQueues';
import { createLogger, errorFields } from '../observability/logger';
import { installWorkerRuntime } from '../observability/temporalRuntime';
import type { Mode } from '../domain/wire/session';
import { publishLiveSignerFingerprint } from '../signer/fingerprint';
import { createSignerWorker, signerDatabasePools, signerDepsFromConfig, treasuryAddressVariables } from '../signer/worker';

const config = loadConfig(process.env, 'signer');
const logger = createLogger(config.logLevel, 'signer');
const metricsBindAddress = config.metrics.workerPort ? `${config.metrics.host}:${config.metrics.workerPort}` : undefined;
async function run(signer: SignerDeps, mode: Mode): Promise<void> {
  // Every Solana deposit address it derives is recorded before it is answered (signer/depositAddresses/
  // solanaDepositAddress.ts): without a database a signer would refuse each one, so it refuses to start instead.
  requireDatabaseUrl(config);
  // What it signs from is written by its role alone (db/serviceRoles.ts); --print-xpubs needs no database.
  for (const sql of signerDatabasePools(signer)) await requireRoleRights(sql, 'checkout_signer');
  const publication = mode === 'live' ? await publishLiveSignerFingerprint(signer) : undefined;
  if (publication?.previous && publication.previous !== publication.fingerprint) {
    logger.warn(
      { fingerprint: publication.fingerprint, previous: publication.previous },
      'live signer replaced the published xpub fingerprint: its seed changed, and the worker refuses live xpubs of the old one',
    );
  }
  installWorkerRuntime({ logger, metricsBindAddress });
  const connection = await NativeConnection.connect(temporalConnectionOptions(config.temporal));
  const worker = await createSignerWorker({
    connection,
    namespace: config.temporal.namespace,
    sessionTaskQueue: config.temporal.taskQueue,
    mode,
    signer,
    shutdownGraceTimeMs: config.shutdownTimeoutMs,
  });
  const treasuries = Object.fromEntries(
    Object.entries(signer.treasuries ?? {}).map(([mode, treasury]) => [mode, treasury.treasury.address]),
  );
  const pool =
    signer.addressPool &&
    keepSolanaAddressPoolAhead(signer.addressPool, signer.depositSeeds, (message, fields) => logger.warn(fields, message));
  logger.info(
    {
      mode,
      taskQueue: signerTaskQueue(config.temporal.taskQueue, mode),
      seed: signer.depositSeeds[mode] !== undefined,
      treasuries,
      ...(publication ? { xpubFingerprint: publication.fingerprint } : {}),
    },
    'signer running',
  );
  await worker.run();
  await pool?.stop();
  await connection.close();
  await Promise.all(signerDatabasePools(signer).map((sql) => sql.end({ timeout: 5 })));
  logger.info('signer stopped');
}

try {
  // The seeds are made here, once: BIP-39 stretching is deliberately slow, so never per activity.
  const signer = await signerDepsFromConfig(config);
  // loadConfig refuses a signer without SIGNER_MODE.
  const mode = config.signerMode as Mode;
  if (process.argv.includes('--print-xpubs')) {
    // Its own mode's lines: the other mode's belong to the other signer.
    const lines = [...depositXpubVariables(depositXpubsFromSeeds(signer.depositSeeds)), ...treasuryAddressVariables(signer)];
    console.log(lines.filter((line) => line.includes(`_${mode.toUpperCase()}`)).join('\n'));
  } else await run(signer, mode);
} catch (error) {
  logger.fatal({ err: errorFields(error) }, 'signer failed');
  process.exit(1);
}
