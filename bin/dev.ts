// `npm start`: the whole service on its embedded defaults (bin/devStack.ts) with persistent data in DATA_DIR, then
// a banner with every URL, the local chains, a demo merchant with a fresh test key and its webhook secret.
import { loadConfig } from '../config/env';
import { leaveSignalsToCaller } from '../db/embeddedPostgres';
import { DEV_PAYER_PATH, DEV_USDC_DECIMALS } from '../toolchain/localChain/devChain';
import { DEV_OWNER_PATH, DEV_RELAYER_PATH } from '../toolchain/localChain/devDepositContracts';
import { LOCAL_SOLANA_SLOT_MS, LOCAL_SOLANA_TREASURY_SOL } from '../toolchain/localSolana/localSolana';
import { createLogger, errorFields } from '../observability/logger';
import { installWorkerRuntime } from '../observability/temporalRuntime';
import { startDevStack, type DevStack } from './devStack';
import { devStatePath, writeDevState } from './devState';
import { onShutdown } from './shutdown';

const config = loadConfig(process.env, 'dev');
const logger = createLogger(config.logLevel, 'dev', config.logFormat);
const progress = (line: string) => console.log(`▸ ${line}`);

// The dev command orders shutdown itself: API first, then the worker drains, then the servers stop. The worker's
// SDK and activity lines go to pino; its Prometheus metrics are served as in bin/worker.ts.
installWorkerRuntime({
  logger: createLogger(config.logLevel, 'worker', config.logFormat),
  metricsBindAddress: config.metrics.workerPort ? `${config.metrics.host}:${config.metrics.workerPort}` : undefined,
  shutdownSignals: [],
});

let stack: DevStack | undefined;
let removeDevState: () => void = () => undefined;
leaveSignalsToCaller();
// Installed before the stack starts: a Ctrl-C during start-up exits at once, and the processes' 'exit' hooks stop
// the servers started so far.
onShutdown(logger, async () => {
  removeDevState();
  await stack?.stop();
});

try {
  stack = await startDevStack({
    config,
    chainEnv: process.env,
    startTemporal: !process.env.TEMPORAL_ADDRESS,
    temporalUiPort: config.temporal.uiPort,
    persistent: true,
    keyLabel: 'npm start',
    progress,
    logger,
  });
} catch (error) {
  logger.fatal({ err: errorFields(error) }, 'could not start the service');
  process.exit(1);
}

/** One demo session created through the API itself, so the banner can link straight to the hosted page. */
async function demoCheckoutUrl(s: DevStack): Promise<string> {
  try {
    const response = await fetch(`${s.apiUrl}/checkout/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-user-type': 'checkout', 'x-api-key': s.testKey },
      body: JSON.stringify({
        merchant_id: s.merchant.id,
        transaction_id: `npm-start-${Date.now()}`,
        amount_usd: 25.5,
        // Nothing listens there: the demo session's webhooks are recorded as failed attempts, harmlessly.
        webhook_url: 'http://127.0.0.1:9/webhooks',
      }),
    });
    const body = (await response.json()) as { data?: { checkout_url_with_token?: string }; error?: string };
    return body.data?.checkout_url_with_token ?? `(could not create a demo session: ${body.error ?? response.status})`;
  } catch (error) {
    return `(could not create a demo session: ${(error as Error).message})`;
  }
}

function chainLines(s: DevStack): string {
  const chain = s.devChain;
  if (!chain)
    return `  Indexers          ${s.indexed.join(', ') || 'none: no RPC_URLS_<CHAIN>_<NETWORK> names a chain with a token contract'}`;
  return `  Local chain       ${chain.local.rpcUrl} (Hardhat, chain id ${chain.local.chainId}), indexed as ${chain.chain} testnet
  USDC test token   ${chain.usdc} (${DEV_USDC_DECIMALS} decimals)
  Payer wallet      ${chain.payer.address} holds ${chain.payerUsdc / 10n ** BigInt(DEV_USDC_DECIMALS)} USDC and ETH for gas
                    (${DEV_PAYER_PATH} of Hardhat's mnemonic; private key ${chain.payerPrivateKey})
  Deposit factory   ${chain.depositContracts.factory}, forwarder ${chain.depositContracts.forwarder}
                    (through the deterministic deployment proxy: test sessions' deposit addresses are its clones)
  Relayer           ${chain.depositContracts.relayer.address}, the factory's and the collector's sweeper
                    (${DEV_RELAYER_PATH} of Hardhat's mnemonic: the signer's EVM_RELAYER_KEY_TEST)
  Collector         DepositCollector ${chain.depositContracts.collector} receives every sweep and burns its USDC
                    to the local Solana treasury's USDC account (owner ${DEV_OWNER_PATH} of Hardhat's mnemonic)
  Inventory path    sweep_evm_${chain.chain}_usdc_test every ${config.sweepIntervalSeconds} s, transfer_usdc_${chain.chain}_test every ${config.transferIntervalSeconds} s
                    from ${config.transferMinimumUsdc} USDC in the collector (checkout-admin sweep now / transfer list)
  CCTP stand-in     TokenMessengerV2 ${chain.cctp.tokenMessenger}, MessageTransmitterV2 ${chain.cctp.messageTransmitter} (domain ${chain.cctp.localDomain})
  Attestation       ${s.attestationUrl} (loopback stand-in of Circle's Iris, the local attester's key)`;
}

function solanaLines(s: DevStack): string {
  const solana = s.localSolana;
  if (!solana) return '';
  const usdc = solana.treasury.usdc / 10n ** BigInt(solana.usdcDecimals);
  return `
  Local Solana      ${solana.rpcUrl} (litesvm, a block every ${LOCAL_SOLANA_SLOT_MS} ms), indexed as solana ${solana.network}
  USDC mint         ${solana.usdcMint} (${solana.usdcDecimals} decimals)
  Treasury          ${solana.treasury.address} holds ${usdc} USDC and ${LOCAL_SOLANA_TREASURY_SOL} SOL
                    (its key is the signer's SOLANA_TREASURY_KEY_TEST, from a public seed: development only)
  Merchant wallet   ${solana.merchantWallet} (no USDC account yet)`;
}

const checkoutUrl = await demoCheckoutUrl(stack);
removeDevState = writeDevState(config.dataDir, {
  pid: process.pid,
  databaseUrl: stack.databaseUrl,
  temporalAddress: stack.temporalAddress,
  temporalNamespace: config.temporal.namespace,
});

console.log(`
Stablecoin checkout is running (Ctrl-C stops everything)
  API               ${stack.apiUrl}
  Temporal Web UI   ${stack.temporalUiUrl ?? '(external Temporal: see its own UI)'}
  Temporal          ${stack.temporalAddress} (namespace ${config.temporal.namespace}, task queue ${config.temporal.taskQueue})
  Postgres          ${stack.postgres}
  Other terminals   npm run admin -- … finds this stack by itself (${devStatePath(config.dataDir)}); for anything else:
                    export DATABASE_URL=${stack.databaseUrl} TEMPORAL_ADDRESS=${stack.temporalAddress}
${chainLines(stack)}${solanaLines(stack)}
  Demo merchant     ${stack.merchant.id}
  Test API key      ${stack.testKey}
                    (shown once, stored only as a hash; every start mints a new one)
  Webhook secret    ${stack.webhookSecret}
                    (test mode, development only: verifies the demo merchant's test webhooks)
  Dashboard         ${stack.dashboard.dashboardUrl}
  Sign-in link      ${stack.dashboard.signInUrl}
                    (one-time: choose a password for ${stack.dashboard.email}, a user of the demo merchant)

Create a session:
  curl -s -X POST ${stack.apiUrl}/checkout/sessions \\
    -H 'content-type: application/json' -H 'x-service-user-type: checkout' -H 'x-api-key: ${stack.testKey}' \\
    -d '{"merchant_id":"${stack.merchant.id}","transaction_id":"order-'$(date +%s)'","amount_usd":25.5,"webhook_url":"https://example.com/webhooks"}'
Open a demo checkout (USD 25.50) in a browser:
  ${checkoutUrl}
A whole payment on the local chain, start to finish: npm run demo
`);
