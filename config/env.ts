// All configuration comes from environment variables, validated once at start-up. docs/configuration.md lists them.
import { base58 } from '@scure/base';
import { z } from 'zod';
import { parseLivePrices, type Rate } from '../domain/money/pricing';
import type { TokenSymbol } from '../domain/chains/chains';
import type { Mode } from '../domain/wire/session';
import { DEFAULT_MINIMUM_DEPOSIT_CENTS } from '../domain/session/sessionLedger';
import { DEFAULT_LIVE_ROUTES, parseLiveRoutes, type LiveRoute } from '../domain/settlement/settlementRoute';
import { DEFAULT_DAILY_LIMIT_USDC } from '../domain/settlement/dailyLimit';
import { DEFAULT_REFUND_NETWORK_FEE_USD, refundFeeMicros } from '../domain/refunds/refundFee';
import { invalidIpRules } from '../domain/security/ipAllowlist';
import { parseTotpEncryptionKey } from '../domain/security/totpSecretSealing';
import { InvalidAccountXpubError, parseAccountXpub, type DepositXpubs } from '../domain/addresses/hdDerivation';
import { DEVELOPMENT_ACCOUNT_XPUBS } from '../domain/addresses/depositSeed';
import { signerModeIssues, signingMaterialIssues, type ProcessName } from './signingMaterial';
import { temporalProductionIssues, temporalTlsFromEnv, type TemporalConnectionSettings } from './temporalTls';
import { depositForwarderIssues, depositForwardersFromEnv } from './depositForwarders';
import { evmSweepConfigFromEnv, type EvmSweepConfig } from './evmSweeps';
import { swapConfigFromEnv, type SwapConfig } from './swaps';
import { tronSweepConfigFromEnv, type TronSweepConfig } from './tronSweeps';
import { inventoryConfigFromEnv, type InventoryConfig } from './inventory';
import type { DepositForwarders } from '../domain/addresses/depositForwarder';
import { isEvmAddress } from '../domain/addresses/evm';
import { isTronAddress } from '../domain/addresses/tron';
import { CCTP_SOURCE_DOMAINS, type CctpSourceChain } from '../domain/cctp/domains';
import { DEFAULT_CCTP_MAX_FEE_BPS } from '../domain/cctp/maxFee';
import { DEFAULT_TRANSFER_MINIMUM } from '../domain/cctp/transfer';

const isCctpSourceChainName = (name: string): name is CctpSourceChain => Object.hasOwn(CCTP_SOURCE_DOMAINS, name);

export type { ProcessName } from './signingMaterial';

/** Strong enough to sign tokens: long, and not a placeholder such as a repeated character or a known phrase. */
const StrongSecret = z
  .string()
  .min(32)
  .refine((secret) => new Set(secret).size >= 12, 'must be random (e.g. `openssl rand -hex 32`), not a placeholder')
  .refine(
    (secret) => !/do-not-use|change-?me|example|secret-?secret|password/i.test(secret),
    'must be random (e.g. `openssl rand -hex 32`), not a placeholder',
  );

const EnvSchema = z
  .object({
    APP_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_BASE_URL: z.url().optional(),
    DATABASE_URL: z.string().optional(),
    DATA_DIR: z.string().default('.data'),
    EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(5433),
    TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
    TEMPORAL_NAMESPACE: z.string().default('default'),
    TEMPORAL_TASK_QUEUE: z.string().default('checkout-sessions'),
    TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
    // File paths and a server name, read and checked by config/temporalTls.ts.
    TEMPORAL_TLS_CA: z.string().optional(),
    TEMPORAL_TLS_CERT: z.string().optional(),
    TEMPORAL_TLS_KEY: z.string().optional(),
    TEMPORAL_TLS_SERVER_NAME: z.string().optional(),
    TEMPORAL_API_KEY: z.string().optional(),
    SESSION_TOKEN_SECRET: StrongSecret.optional(),
    TOTP_ENCRYPTION_KEY: z
      .string()
      .superRefine((text, ctx) => {
        const parsed = parseTotpEncryptionKey(text);
        if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
      })
      .optional(),
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(10 * 1024 * 1024)
      .default(64 * 1024),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
    LIVE_TOKEN_PRICES_USD: z.string().optional(),
    SETTLEMENT_LIVE_ROUTES: z.string().default(DEFAULT_LIVE_ROUTES),
    QUOTE_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
    // Which mode's keys a signer holds; required by the signer only (config/signingMaterial.ts).
    SIGNER_MODE: z.enum(['test', 'live']).optional(),
    // Signing material: the signer's alone (config/signingMaterial.ts checks who holds it and its shape).
    DEPOSIT_MNEMONIC_TEST: z.string().optional(),
    DEPOSIT_MNEMONIC_LIVE: z.string().optional(),
    SOLANA_TREASURY_KEY_TEST: z.string().optional(),
    SOLANA_TREASURY_KEY_LIVE: z.string().optional(),
    SOLANA_PAYOUT_MEMO: z.enum(['true', 'false']).default('true'),
    EVM_RELAYER_KEY_TEST: z.string().optional(),
    EVM_RELAYER_KEY_LIVE: z.string().optional(),
    EVM_DEPOSIT_COLLECTOR_TEST: z.string().refine(isEvmAddress, 'is not an EVM address (EIP-55 checksum or all lowercase)').optional(),
    EVM_DEPOSIT_COLLECTOR_LIVE: z.string().refine(isEvmAddress, 'is not an EVM address (EIP-55 checksum or all lowercase)').optional(),
    TRON_DEPOSIT_COLLECTOR_TEST: z
      .string()
      .refine((value) => isTronAddress(value.trim()), 'is not a Tron address (base58check T…)')
      .optional(),
    TRON_DEPOSIT_COLLECTOR_LIVE: z
      .string()
      .refine((value) => isTronAddress(value.trim()), 'is not a Tron address (base58check T…)')
      .optional(),
    TRANSFER_INTERVAL_SECONDS: z.coerce
      .number()
      .int()
      .refine((n) => n === 0 || (n >= 10 && n <= 7 * 24 * 3600), 'must be 0 (off) or 10 to 604800')
      .default(300),
    TRANSFER_MINIMUM_USDC: z.coerce
      .number()
      .int()
      .min(1)
      .max(10_000_000)
      .default(Number(DEFAULT_TRANSFER_MINIMUM / 1_000_000n)),
    CCTP_FAST_CHAINS: z
      .string()
      .default('')
      .refine(
        (value) => listEntries(value).every((chain) => isCctpSourceChainName(chain)),
        `lists chains CCTP carries USDC from: ${Object.keys(CCTP_SOURCE_DOMAINS).join(', ')}`,
      ),
    CCTP_MAX_FEE_BPS: z.coerce.number().min(0).max(100).default(DEFAULT_CCTP_MAX_FEE_BPS),
    SETTLEMENT_RPC_RECHECK_ABOVE_USDC: z.coerce.number().int().min(0).max(1_000_000_000).default(1000),
    SETTLEMENT_DAILY_LIMIT_USDC: z
      .string()
      .trim()
      .default(String(DEFAULT_DAILY_LIMIT_USDC))
      .refine(
        (value) => value === 'none' || (/^\d{1,10}$/.test(value) && Number(value) <= 1_000_000_000),
        'must be whole USDC, 0 to 1000000000 (0: every live payout waits for an operator), or `none` (no limit)',
      ),
    REFUND_NETWORK_FEE_USD: z
      .string()
      .trim()
      .default(DEFAULT_REFUND_NETWORK_FEE_USD)
      .refine((value) => {
        try {
          refundFeeMicros(value);
          return true;
        } catch {
          return false;
        }
      }, 'must be USD with at most 6 decimals, 0 to 100'),
    REFUND_MERCHANT_RECEIVABLE_LIMIT_USDC: z
      .string()
      .trim()
      .default('pending')
      .refine(
        (value) => value === 'pending' || (/^\d{1,10}$/.test(value) && Number(value) <= 1_000_000_000),
        "must be whole USDC, 0 to 1000000000, or `pending` (what the service holds for the merchant's payouts to come)",
      ),
    SOLANA_TREASURY_ADDRESS_TEST: z.string().optional(),
    SOLANA_TREASURY_ADDRESS_LIVE: z.string().optional(),
    RECONCILIATION_INTERVAL_MINUTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(15),
    DEPOSIT_XPUB_EVM_TEST: z.string().optional(),
    DEPOSIT_XPUB_TRON_TEST: z.string().optional(),
    DEPOSIT_XPUB_EVM_LIVE: z.string().optional(),
    DEPOSIT_XPUB_TRON_LIVE: z.string().optional(),
    EVM_DEPOSIT_FACTORY_TEST: z.string().optional(),
    EVM_DEPOSIT_FORWARDER_TEST: z.string().optional(),
    EVM_DEPOSIT_FACTORY_LIVE: z.string().optional(),
    EVM_DEPOSIT_FORWARDER_LIVE: z.string().optional(),
    TRON_DEPOSIT_FACTORY_TEST: z.string().optional(),
    TRON_DEPOSIT_FORWARDER_TEST: z.string().optional(),
    TRON_DEPOSIT_FACTORY_LIVE: z.string().optional(),
    TRON_DEPOSIT_FORWARDER_LIVE: z.string().optional(),
    LATE_DEPOSIT_WATCH_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(24 * 7),
    MINIMUM_DEPOSIT_CENTS: z.coerce.number().int().min(1).max(100_000).default(Number(DEFAULT_MINIMUM_DEPOSIT_CENTS)),
    REFUND_CLAIM_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1000).max(60_000).default(10_000),
    WEBHOOK_ALLOWED_PRIVATE_TARGETS: z.string().default(''),
    WEBHOOK_MAX_CONCURRENT_DELIVERIES: z.coerce.number().int().min(1).max(10_000).default(100),
    WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT: z.coerce.number().int().min(1).max(10_000).default(10),
    MAX_OPEN_SESSIONS_LIVE: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
    MAX_OPEN_SESSIONS_TEST: z.coerce.number().int().min(1).max(10_000_000).default(1_000),
    RETENTION_INTERVAL_MINUTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(60),
    RETENTION_QUOTE_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
    RETENTION_RATE_LIMIT_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 365)
      .default(24),
    RETENTION_WEBHOOK_ATTEMPT_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    SWEEP_INTERVAL_SECONDS: z.coerce
      .number()
      .int()
      .refine((n) => n === 0 || (n >= 10 && n <= 7 * 24 * 3600), 'must be 0 (off) or 10 to 604800')
      .default(300),
    TRUST_PROXY: z.string().default(''),
    INTERNAL_HOST: z.string().default('127.0.0.1'),
    INTERNAL_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
    RATE_LIMIT_PER_SESSION_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
    RATE_LIMIT_SESSION_TOKENS_PER_MERCHANT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(6_000),
    AUTH_FAILURES_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(30),
    METRICS_HOST: z.string().default('127.0.0.1'),
    WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
    INDEXER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
    READINESS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2_000),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(25_000),
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(300_000).default(0),
    LOCAL_CHAIN_PORT: z.coerce.number().int().min(0).max(65535).default(8545),
    LOCAL_SOLANA_PORT: z.coerce.number().int().min(0).max(65535).default(8899),
    CCTP_ATTESTATION_URL: z.url({ protocol: /^https?$/ }).default('https://iris-api.circle.com'),
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
    EMAIL_FROM: z
      .string()
      .trim()
      .max(320)
      .refine((value) => z.email().safeParse(senderAddress(value)).success, 'must be an address, or a name and <address>')
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (/^(true|false|yes|no|1|0)$/i.test(env.TRUST_PROXY.trim())) {
      ctx.addIssue({
        code: 'custom',
        path: ['TRUST_PROXY'],
        message:
          'is a list of your reverse proxies\' addresses or CIDR ranges (e.g. 10.0.0.0/8), not a boolean: "true" believed X-Forwarded-For from anyone',
      });
    } else if (invalidIpRules(listEntries(env.TRUST_PROXY)).length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['TRUST_PROXY'],
        message: `not an address or CIDR range: ${invalidIpRules(listEntries(env.TRUST_PROXY)).join(', ')}`,
      });
    }
    if (env.SMTP_URL && !env.EMAIL_FROM) {
      ctx.addIssue({ code: 'custom', path: ['EMAIL_FROM'], message: 'is required with SMTP_URL: the address customers are e-mailed from' });
    }
    for (const issue of depositXpubIssues(env)) ctx.addIssue({ code: 'custom', ...issue });
    for (const issue of depositForwarderIssues(env)) ctx.addIssue({ code: 'custom', ...issue });
    for (const name of ['SOLANA_TREASURY_ADDRESS_TEST', 'SOLANA_TREASURY_ADDRESS_LIVE'] as const) {
      const value = env[name]?.trim();
      if (value && !isSolanaAddress(value))
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'is not a Solana address (npm run signer -- --print-xpubs prints the right one)',
        });
    }
    const badTargets = invalidIpRules(listEntries(env.WEBHOOK_ALLOWED_PRIVATE_TARGETS));
    if (badTargets.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOK_ALLOWED_PRIVATE_TARGETS'],
        message: `not an address or CIDR range: ${badTargets.join(', ')}`,
      });
    }
    try {
      parseLivePrices(env.LIVE_TOKEN_PRICES_USD);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['LIVE_TOKEN_PRICES_USD'], message: (error as Error).message });
    }
    try {
      parseLiveRoutes(env.SETTLEMENT_LIVE_ROUTES);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['SETTLEMENT_LIVE_ROUTES'], message: (error as Error).message });
    }
  });

/** How old rows may get before the retention sweep purges them. */
export interface RetentionAges {
  /** Quotes this long past their expiry, unless a payment refers to them. */
  quoteDays: number;
  /** Rate-limit counters whose window started this long ago (they only matter within their minute). */
  rateLimitHours: number;
  /** Attempts of finished webhook deliveries, and dashboard test events, this old. */
  webhookAttemptDays: number;
}

export type Config = {
  appEnv: 'development' | 'test' | 'production';
  host: string;
  port: number;
  publicBaseUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPostgresPort: number;
  /**
   * The frontend and how to reach it: `tls` and `apiKey` from TEMPORAL_TLS_* and TEMPORAL_API_KEY, checked at start
   * (config/temporalTls.ts). `npm start` ignores them: its own dev server listens on loopback in plaintext.
   */
  temporal: TemporalConnectionSettings & { namespace: string; taskQueue: string; uiPort: number };
  /**
   * Only the API signs and checks session tokens, so only its container is given the secret. Unset here, the
   * API resolves one at start (api/sessionTokenSecret.ts).
   */
  sessionTokenSecret: string | undefined;
  /**
   * The AES-256-GCM key of dashboard users' TOTP secrets (domain/security/totpSecretSealing.ts); the API's alone, like
   * the session-token secret, and resolved the same way at start (api/totpEncryptionKey.ts).
   */
  totpEncryptionKey: Buffer | undefined;
  maxBodyBytes: number;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** JSON lines for a log store; `npm start` (a person at a terminal) defaults to one short line per entry. */
  logFormat: 'json' | 'pretty';
  /** Operator-set USD prices for live quotes; empty means live quotes are refused, never 1:1. */
  liveTokenPrices: Partial<Record<TokenSymbol, Rate>>;
  quoteTtlSeconds: number;
  /** The live pairs the Solana USDC treasury settles (domain/settlement/settlementRoute.ts); any other live pair fails loudly. */
  settlementLiveRoutes: LiveRoute[];
  /**
   * The mode whose signing material the signer holds and whose queue it polls (SIGNER_MODE); required by the
   * signer, unset elsewhere: `npm start` runs a signer worker per mode in one process.
   */
  signerMode: Mode | undefined;
  /**
   * BIP-39 mnemonics of the deposit-address seeds, one per mode; test mode falls back to the development mnemonic.
   * Only the signer (and `npm start`, which runs it in-process) may be given them.
   */
  depositMnemonics: { test: string | undefined; live: string | undefined };
  /**
   * base58 64-byte keypairs of the Solana USDC treasuries merchants are paid from, one per mode; unset: that mode
   * has no treasury. Only the signer may be given them (config/signingMaterial.ts).
   */
  solanaTreasuryKeys: { test: string | undefined; live: string | undefined };
  /**
   * Whether payouts carry the pay_… memo. Every cluster runs the SPL Memo program; only the local litesvm chain
   * cannot execute it (TreasuryPayoutDeps.memo), so the dev stack and tests turn it off, by name, never by guessing.
   */
  solanaPayoutMemo: boolean;
  /** The DepositCollector of each mode (npm run deploy-contracts prints it); unset: that mode burns nothing. */
  depositCollectors: { test: string | undefined; live: string | undefined };
  /**
   * Where each mode's Tron HD deposit addresses are swept (TRON_DEPOSIT_COLLECTOR_<MODE>, base58); unset: they are
   * not. A variable rather than the Tron factory's collector read from the chain: HD addresses predate the
   * forwarders, so a mode may have them and no factory, and the signer's start needs no node to answer.
   */
  tronDepositCollectors: { test: string | undefined; live: string | undefined };
  /** How often the schedules transfer_usdc_<chain>_<mode> look at the collectors (worker/transferSchedules.ts); 0: paused. */
  transferIntervalSeconds: number;
  /** Whole USDC a collector must hold before a CCTP transfer starts: each burn costs gas. */
  transferMinimumUsdc: number;
  /** Source chains whose burns ask for Fast attestation (a fee, seconds) instead of Standard (free, ~15 min). */
  cctpFastChains: CctpSourceChain[];
  /** The most of a burn, in bps, the signer lets the attestation service's fee quote take (domain/cctp/maxFee.ts). */
  cctpMaxFeeBps: number;
  /**
   * Whole USDC above which the signer re-reads a payout's deposits from the chain's RPC endpoint as well as the
   * indexer's rows (docs/settlement.md#r3-paid-on-the-indexers-facts); 0 re-reads every payout.
   */
  settlementRpcRecheckAboveUsdc: number;
  /**
   * Whole USDC of live payouts per merchant in a trailing 24 hours above which a payout waits for an operator's
   * approval (docs/settlement.md#daily-limit); undefined (`none`): no limit.
   */
  settlementDailyLimitUsdc: number | undefined;
  /** REFUND_NETWORK_FEE_USD in USD micro-units: the network fee of each refund (docs/refunds.md#fees). */
  refundNetworkFeeUsdMicros: bigint;
  /**
   * Whole USDC a merchant may owe the service for refunds of money it was already paid (docs/refunds.md#funding);
   * `pending`: what the service holds for that merchant's payouts to come.
   */
  refundMerchantReceivableLimitUsdc: number | 'pending';
  /**
   * The treasuries' public addresses, for the processes that reconcile the ledger with the chain without the key
   * (the worker, the admin CLI); the signer checks them against its keys.
   */
  solanaTreasuryAddresses: { test: string | undefined; live: string | undefined };
  /** How often the worker reconciles the ledger with the chain (worker/reconciliationSweeper.ts); 0: never. */
  reconciliationIntervalMinutes: number;
  /** Account xpubs the main worker derives EVM and Tron deposit addresses from; test defaults to the development mnemonic's. */
  depositXpubs: DepositXpubs;
  /**
   * Per mode and chain family, the DepositFactory and DepositForwarder new sessions' deposit addresses are CREATE2
   * clones of (config/depositForwarders.ts); a family without them keeps HD addresses from the xpubs.
   */
  depositForwarders: DepositForwarders;
  /** How long after a session closes its deposit address is still watched, so late deposits are caught. */
  lateDepositWatchHours: number;
  /** Deposits worth less are dust: kept for a refund, never credited. */
  minimumDepositCents: number;
  /** How long a refund waits for the customer to say where it goes before it expires (docs/refunds.md#expiry). */
  refundClaimDays: number;
  webhookTimeoutMs: number;
  /** Private addresses and ranges webhooks may reach even where only public targets are allowed (live, or production). */
  webhookAllowedPrivateTargets: string[];
  /** Delivery attempts one webhook worker runs at once, and at most this many for one merchant. */
  webhookMaxConcurrentDeliveries: number;
  webhookMaxInFlightPerMerchant: number;
  /** The reverse proxies whose X-Forwarded-For is believed (domain/security/clientAddress.ts); empty: none. */
  trustedProxies: string[];
  /** The API's internal listener (/metrics, detailed /readyz); no port: not started. */
  internal: { host: string; port: number | undefined };
  /** Open sessions a merchant may have at once per mode; test keys are cheap to get, so their cap is lower. */
  maxOpenSessions: Record<'test' | 'live', number>;
  /** The worker's retention sweep (worker/retentionSweeper.ts): how often (0: never), and what age is old. */
  retention: { intervalMinutes: number; ages: RetentionAges };
  /** How often the schedules sweep_solana_usdc_<mode> sweep Solana deposit accounts (worker/sweepSchedules.ts); 0: paused. */
  sweepIntervalSeconds: number;
  /** The relayer and the forwarder sweeps (config/evmSweeps.ts). */
  evmSweeps: EvmSweepConfig;
  /** The Tron relayer's forwarder sweeps (config/tronSweeps.ts). */
  tronSweeps: TronSweepConfig;
  /** Held inventory's exposure caps and rebalancing addresses (config/inventory.ts). */
  inventory: InventoryConfig;
  /** USDT→USDC swaps in the CCTP chains' collectors (config/swaps.ts). */
  swaps: SwapConfig;
  /** Requests per API key per minute, counted in Postgres so every API replica shares one budget. */
  rateLimitPerMinute: number;
  /** Session-token requests (the hosted page) per checkout session per minute; the page polls 30 times a minute. */
  rateLimitPerSessionPerMinute: number;
  /** Session-token requests per merchant per minute across all its sessions: 6000 is 200 pages polling at once. */
  rateLimitSessionTokensPerMerchantPerMinute: number;
  /** Refused API keys and forged session tokens per client address per minute, before the address is answered 429. */
  authFailuresPerIpPerMinute: number;
  /** Where the worker's and the indexer's own metrics endpoints listen; port 0 turns one off. */
  metrics: { host: string; workerPort: number; indexerPort: number };
  /** How long /readyz waits for Postgres and for Temporal before it reports the dependency as failed. */
  readinessTimeoutMs: number;
  /** After SIGTERM: how long in-flight requests and activities may run before the process stops anyway. */
  shutdownTimeoutMs: number;
  /** After SIGTERM, before the API stops accepting connections: /readyz answers 503 so load balancers move away. */
  shutdownDrainMs: number;
  /** Port of the local Hardhat chain `npm start` runs when no RPC_URLS_* are set; 0 picks a free one. */
  localChainPort: number;
  /** Port of the local Solana chain `npm start` runs when no RPC_URLS_SOLANA_* is set; 0 picks a free one. */
  localSolanaPort: number;
  /** Circle's CCTP attestation service (Iris); its sandbox serves the testnets, the local stand-in `npm start`. */
  cctpAttestationUrl: string;
  /**
   * Where refunds' customer e-mails go (docs/refunds.md#e-mail-to-the-customer): the API sends the claim link, the
   * worker the reminder; undefined: none is sent.
   * The URL may hold the server's credentials: it is never logged.
   */
  email: { smtpUrl: string; from: string } | undefined;
};

type XpubEnv = Partial<Record<`DEPOSIT_XPUB_${'EVM' | 'TRON'}_${'TEST' | 'LIVE'}`, string>>;

const MODE_SUFFIX = { test: 'TEST', live: 'LIVE' } as const;

/** Both xpubs of a mode or neither; test falls back to the development ones, live has none. */
function depositXpubsFor(env: XpubEnv, mode: 'test' | 'live') {
  const evm = env[`DEPOSIT_XPUB_EVM_${MODE_SUFFIX[mode]}`]?.trim() || undefined;
  const tron = env[`DEPOSIT_XPUB_TRON_${MODE_SUFFIX[mode]}`]?.trim() || undefined;
  if (evm && tron) return { evm, tron };
  return !evm && !tron && mode === 'test' ? DEVELOPMENT_ACCOUNT_XPUBS : undefined;
}

function depositXpubIssues(env: XpubEnv): Array<{ path: string[]; message: string }> {
  const issues = [];
  for (const mode of ['test', 'live'] as const) {
    const [evmName, tronName] = [`DEPOSIT_XPUB_EVM_${MODE_SUFFIX[mode]}`, `DEPOSIT_XPUB_TRON_${MODE_SUFFIX[mode]}`] as const;
    if (!env[evmName]?.trim() !== !env[tronName]?.trim()) {
      issues.push({
        path: [env[evmName]?.trim() ? tronName : evmName],
        message: `is needed with ${env[evmName]?.trim() ? evmName : tronName}: set both xpubs of a mode or neither`,
      });
    }
    for (const name of [evmName, tronName]) {
      const value = env[name]?.trim();
      if (!value) continue;
      try {
        parseAccountXpub(value);
      } catch (error) {
        if (!(error instanceof InvalidAccountXpubError)) throw error;
        issues.push({ path: [name], message: `${error.message} (npm run signer -- --print-xpubs prints the right one)` });
      }
    }
  }
  const [test, live] = [depositXpubsFor(env, 'test'), depositXpubsFor(env, 'live')];
  if (live && test && (live.evm === test.evm || live.tron === test.tron)) {
    issues.push({
      path: ['DEPOSIT_XPUB_EVM_TEST'],
      message: 'must differ from the live xpubs: test keys must never derive from live key material',
    });
  }
  return issues;
}

/** The worker's xpub variables for what the signer holds (`npm run signer -- --print-xpubs`), as env-file lines. */
export function depositXpubVariables(xpubs: DepositXpubs): string[] {
  return (['test', 'live'] as const).flatMap((mode) => {
    const modeXpubs = xpubs[mode];
    const suffix = MODE_SUFFIX[mode];
    if (!modeXpubs) return [`# no DEPOSIT_MNEMONIC_${suffix}: no ${mode} xpubs`];
    return [`DEPOSIT_XPUB_EVM_${suffix}=${modeXpubs.evm}`, `DEPOSIT_XPUB_TRON_${suffix}=${modeXpubs.tron}`];
  });
}

/** base58 of 32 bytes, as a Solana address is written. */
function isSolanaAddress(text: string): boolean {
  try {
    return base58.decode(text).length === 32;
  } catch {
    return false;
  }
}

/** The address of `Name <address>`, or the whole text. */
function senderAddress(text: string): string {
  return /<([^<>]*)>\s*$/.exec(text)?.[1] ?? text;
}

/** A comma-separated list, blanks dropped. */
function listEntries(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `processName` says which process reads it: only the signer (and `npm start`) may hold signing material. */
export function loadConfig(env: NodeJS.ProcessEnv, processName: ProcessName): Config {
  const parsed = EnvSchema.safeParse(env);
  const evmSweeps = evmSweepConfigFromEnv(env);
  const tronSweeps = tronSweepConfigFromEnv(env);
  const inventory = inventoryConfigFromEnv(env);
  const swaps = swapConfigFromEnv(env);
  const temporalTls = temporalTlsFromEnv(env);
  const problems = [
    ...signingMaterialIssues(env, processName).map((issue) => `${issue.path}: ${issue.message}`),
    ...signerModeIssues(env, processName).map((issue) => `${issue.path}: ${issue.message}`),
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)),
    ...evmSweeps.issues,
    ...tronSweeps.issues,
    ...inventory.issues,
    ...swaps.issues,
    ...[...temporalTls.issues, ...temporalProductionIssues(env, processName)].map((issue) => `${issue.path.join('.')}: ${issue.message}`),
  ];
  if (!parsed.success || !evmSweeps.config || !tronSweeps.config || !inventory.config || !swaps.config || problems.length > 0)
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  const e = parsed.data;
  return {
    appEnv: e.APP_ENV,
    host: e.HOST,
    port: e.PORT,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://${e.HOST === '0.0.0.0' ? '127.0.0.1' : e.HOST}:${e.PORT}`).replace(/\/$/, ''),
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    embeddedPostgresPort: e.EMBEDDED_POSTGRES_PORT,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      tls: temporalTls.tls,
      apiKey: temporalTls.apiKey,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      uiPort: e.TEMPORAL_UI_PORT,
    },
    sessionTokenSecret: e.SESSION_TOKEN_SECRET,
    totpEncryptionKey: e.TOTP_ENCRYPTION_KEY === undefined ? undefined : totpKey(e.TOTP_ENCRYPTION_KEY),
    maxBodyBytes: e.MAX_BODY_BYTES,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (processName === 'dev' ? 'pretty' : 'json'),
    liveTokenPrices: parseLivePrices(e.LIVE_TOKEN_PRICES_USD),
    quoteTtlSeconds: e.QUOTE_TTL_SECONDS,
    settlementLiveRoutes: parseLiveRoutes(e.SETTLEMENT_LIVE_ROUTES),
    signerMode: processName === 'signer' ? e.SIGNER_MODE : undefined,
    depositMnemonics: { test: e.DEPOSIT_MNEMONIC_TEST, live: e.DEPOSIT_MNEMONIC_LIVE },
    solanaTreasuryKeys: { test: e.SOLANA_TREASURY_KEY_TEST?.trim() || undefined, live: e.SOLANA_TREASURY_KEY_LIVE?.trim() || undefined },
    solanaPayoutMemo: e.SOLANA_PAYOUT_MEMO === 'true',
    depositCollectors: { test: e.EVM_DEPOSIT_COLLECTOR_TEST?.trim() || undefined, live: e.EVM_DEPOSIT_COLLECTOR_LIVE?.trim() || undefined },
    tronDepositCollectors: {
      test: e.TRON_DEPOSIT_COLLECTOR_TEST?.trim() || undefined,
      live: e.TRON_DEPOSIT_COLLECTOR_LIVE?.trim() || undefined,
    },
    transferIntervalSeconds: e.TRANSFER_INTERVAL_SECONDS,
    transferMinimumUsdc: e.TRANSFER_MINIMUM_USDC,
    cctpFastChains: listEntries(e.CCTP_FAST_CHAINS).filter(isCctpSourceChainName),
    cctpMaxFeeBps: e.CCTP_MAX_FEE_BPS,
    settlementRpcRecheckAboveUsdc: e.SETTLEMENT_RPC_RECHECK_ABOVE_USDC,
    settlementDailyLimitUsdc: e.SETTLEMENT_DAILY_LIMIT_USDC === 'none' ? undefined : Number(e.SETTLEMENT_DAILY_LIMIT_USDC),
    refundNetworkFeeUsdMicros: refundFeeMicros(e.REFUND_NETWORK_FEE_USD),
    refundMerchantReceivableLimitUsdc:
      e.REFUND_MERCHANT_RECEIVABLE_LIMIT_USDC === 'pending' ? 'pending' : Number(e.REFUND_MERCHANT_RECEIVABLE_LIMIT_USDC),
    solanaTreasuryAddresses: {
      test: e.SOLANA_TREASURY_ADDRESS_TEST?.trim() || undefined,
      live: e.SOLANA_TREASURY_ADDRESS_LIVE?.trim() || undefined,
    },
    reconciliationIntervalMinutes: e.RECONCILIATION_INTERVAL_MINUTES,
    depositXpubs: { test: depositXpubsFor(e, 'test'), live: depositXpubsFor(e, 'live') },
    depositForwarders: depositForwardersFromEnv(e),
    lateDepositWatchHours: e.LATE_DEPOSIT_WATCH_HOURS,
    minimumDepositCents: e.MINIMUM_DEPOSIT_CENTS,
    refundClaimDays: e.REFUND_CLAIM_DAYS,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    webhookAllowedPrivateTargets: listEntries(e.WEBHOOK_ALLOWED_PRIVATE_TARGETS),
    webhookMaxConcurrentDeliveries: e.WEBHOOK_MAX_CONCURRENT_DELIVERIES,
    webhookMaxInFlightPerMerchant: e.WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT,
    trustedProxies: listEntries(e.TRUST_PROXY),
    internal: { host: e.INTERNAL_HOST, port: e.INTERNAL_PORT },
    maxOpenSessions: { test: e.MAX_OPEN_SESSIONS_TEST, live: e.MAX_OPEN_SESSIONS_LIVE },
    retention: {
      intervalMinutes: e.RETENTION_INTERVAL_MINUTES,
      ages: {
        quoteDays: e.RETENTION_QUOTE_DAYS,
        rateLimitHours: e.RETENTION_RATE_LIMIT_HOURS,
        webhookAttemptDays: e.RETENTION_WEBHOOK_ATTEMPT_DAYS,
      },
    },
    sweepIntervalSeconds: e.SWEEP_INTERVAL_SECONDS,
    evmSweeps: evmSweeps.config,
    tronSweeps: tronSweeps.config,
    inventory: inventory.config,
    swaps: swaps.config,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    rateLimitPerSessionPerMinute: e.RATE_LIMIT_PER_SESSION_PER_MINUTE,
    rateLimitSessionTokensPerMerchantPerMinute: e.RATE_LIMIT_SESSION_TOKENS_PER_MERCHANT_PER_MINUTE,
    authFailuresPerIpPerMinute: e.AUTH_FAILURES_PER_IP_PER_MINUTE,
    metrics: { host: e.METRICS_HOST, workerPort: e.WORKER_METRICS_PORT, indexerPort: e.INDEXER_METRICS_PORT },
    readinessTimeoutMs: e.READINESS_TIMEOUT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    localChainPort: e.LOCAL_CHAIN_PORT,
    localSolanaPort: e.LOCAL_SOLANA_PORT,
    cctpAttestationUrl: e.CCTP_ATTESTATION_URL,
    email: e.SMTP_URL && e.EMAIL_FROM ? { smtpUrl: e.SMTP_URL, from: e.EMAIL_FROM } : undefined,
  };
}

/** The API's signing secret for session tokens, once resolved at start (api/sessionTokenSecret.ts). */
export function requireSessionTokenSecret(config: Pick<Config, 'sessionTokenSecret'>): string {
  if (!config.sessionTokenSecret) throw new ConfigError('invalid configuration: SESSION_TOKEN_SECRET: is required when APP_ENV=production');
  return config.sessionTokenSecret;
}

/** The key of dashboard users' TOTP secrets, once resolved at start (api/totpEncryptionKey.ts). */
export function requireTotpEncryptionKey(config: Pick<Config, 'totpEncryptionKey'>): Buffer {
  if (!config.totpEncryptionKey) throw new ConfigError('invalid configuration: TOTP_ENCRYPTION_KEY: is required when APP_ENV=production');
  return config.totpEncryptionKey;
}

/** A TOTP_ENCRYPTION_KEY the schema has accepted. */
function totpKey(text: string): Buffer {
  const parsed = parseTotpEncryptionKey(text);
  if ('problem' in parsed) throw new ConfigError(`invalid configuration: TOTP_ENCRYPTION_KEY: ${parsed.problem}`);
  return parsed.key;
}

export function requireDatabaseUrl(config: Config): string {
  if (!config.databaseUrl) throw new ConfigError('invalid configuration: DATABASE_URL: Required (npm start provides an embedded Postgres)');
  return config.databaseUrl;
}
