import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, requireSessionTokenSecret, requireTotpEncryptionKey } from '../../config/env';

describe('configuration', () => {
  it('starts on documented defaults with nothing set', () => {
    const config = loadConfig({}, 'api');
    expect(config).toMatchObject({
      appEnv: 'development',
      host: '127.0.0.1',
      port: 3000,
      publicBaseUrl: 'http://127.0.0.1:3000',
      databaseUrl: undefined,
      temporal: { address: '127.0.0.1:7233', namespace: 'default', taskQueue: 'checkout-sessions', uiPort: 8233 },
      maxBodyBytes: 65536,
    });
  });

  it('reads the dust threshold in whole cents, one by default', () => {
    expect(loadConfig({}, 'api').minimumDepositCents).toBe(1);
    expect(loadConfig({ MINIMUM_DEPOSIT_CENTS: '50' }, 'api').minimumDepositCents).toBe(50);
    expect(() => loadConfig({ MINIMUM_DEPOSIT_CENTS: '0.5' }, 'api')).toThrow('MINIMUM_DEPOSIT_CENTS');
  });

  it('reads how long a refund waits for its claim in whole days, 30 by default', () => {
    expect(loadConfig({}, 'api').refundClaimDays).toBe(30);
    expect(loadConfig({ REFUND_CLAIM_DAYS: '7' }, 'api').refundClaimDays).toBe(7);
    for (const invalid of ['0', '1.5', '366']) {
      expect(() => loadConfig({ REFUND_CLAIM_DAYS: invalid }, 'api')).toThrow(/invalid configuration: REFUND_CLAIM_DAYS: /);
    }
  });

  it.each(['api', 'worker'] as const)(
    'the %s sends no e-mail by default; an SMTP server needs its sender, and only an SMTP URL and an address are taken',
    (process) => {
      expect(loadConfig({}, process).email).toBeUndefined();
      expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example:465', EMAIL_FROM: 'Refunds <refunds@pay.example>' }, process).email).toEqual({
        smtpUrl: 'smtps://u:p@mail.example:465',
        from: 'Refunds <refunds@pay.example>',
      });
      expect(loadConfig({ SMTP_URL: 'smtp://mail.example', EMAIL_FROM: 'refunds@pay.example' }, process).email?.from).toBe(
        'refunds@pay.example',
      );
      expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example' }, process)).toThrow(/EMAIL_FROM: is required with SMTP_URL/);
      expect(() => loadConfig({ SMTP_URL: 'https://mail.example', EMAIL_FROM: 'refunds@pay.example' }, process)).toThrow(
        /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
      );
      for (const from of ['refunds', 'Refunds <refunds>', 'Refunds <>']) {
        expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example', EMAIL_FROM: from }, process), from).toThrow(
          /EMAIL_FROM: must be an address/,
        );
      }
    },
  );

  it('reads the payout re-read threshold in whole USDC, 1000 by default, 0 re-reading every payout', () => {
    expect(loadConfig({ SIGNER_MODE: 'test' }, 'signer').settlementRpcRecheckAboveUsdc).toBe(1000);
    expect(loadConfig({ SIGNER_MODE: 'test', SETTLEMENT_RPC_RECHECK_ABOVE_USDC: '0' }, 'signer').settlementRpcRecheckAboveUsdc).toBe(0);
    for (const invalid of ['-1', '2.5', 'lots']) {
      expect(() => loadConfig({ SIGNER_MODE: 'test', SETTLEMENT_RPC_RECHECK_ABOVE_USDC: invalid }, 'signer')).toThrow(
        /invalid configuration: SETTLEMENT_RPC_RECHECK_ABOVE_USDC: /,
      );
    }
  });

  it('reads the daily limit of live payouts in whole USDC, 10000 by default, 0 holding every live payout, none lifting it', () => {
    expect(loadConfig({ SIGNER_MODE: 'live' }, 'signer').settlementDailyLimitUsdc).toBe(10_000);
    expect(loadConfig({ SIGNER_MODE: 'live', SETTLEMENT_DAILY_LIMIT_USDC: '0' }, 'signer').settlementDailyLimitUsdc).toBe(0);
    expect(loadConfig({ SIGNER_MODE: 'live', SETTLEMENT_DAILY_LIMIT_USDC: ' 250000 ' }, 'signer').settlementDailyLimitUsdc).toBe(250_000);
    expect(loadConfig({ SIGNER_MODE: 'live', SETTLEMENT_DAILY_LIMIT_USDC: 'none' }, 'signer').settlementDailyLimitUsdc).toBeUndefined();
    for (const invalid of ['-1', '2.5', '', 'off', '1000000001']) {
      expect(() => loadConfig({ SIGNER_MODE: 'live', SETTLEMENT_DAILY_LIMIT_USDC: invalid }, 'signer')).toThrow(
        /invalid configuration: SETTLEMENT_DAILY_LIMIT_USDC: must be whole USDC/,
      );
    }
  });

  it('reads the refund network fee in USD to the micro-dollar, 0.01 by default, and refuses what is not such an amount', () => {
    expect(loadConfig({ SIGNER_MODE: 'test' }, 'signer').refundNetworkFeeUsdMicros).toBe(10_000n);
    expect(loadConfig({ SIGNER_MODE: 'test', REFUND_NETWORK_FEE_USD: ' 0.25 ' }, 'signer').refundNetworkFeeUsdMicros).toBe(250_000n);
    expect(loadConfig({ SIGNER_MODE: 'test', REFUND_NETWORK_FEE_USD: '0' }, 'signer').refundNetworkFeeUsdMicros).toBe(0n);
    for (const invalid of ['-0.01', '0.0000001', '', 'free', '101'])
      expect(() => loadConfig({ SIGNER_MODE: 'test', REFUND_NETWORK_FEE_USD: invalid }, 'signer')).toThrow(
        /invalid configuration: REFUND_NETWORK_FEE_USD: must be USD/,
      );
  });

  it("reads a merchant's refund receivable limit in whole USDC, by default what the service holds for its payouts to come", () => {
    expect(loadConfig({ SIGNER_MODE: 'test' }, 'signer').refundMerchantReceivableLimitUsdc).toBe('pending');
    expect(
      loadConfig({ SIGNER_MODE: 'test', REFUND_MERCHANT_RECEIVABLE_LIMIT_USDC: '500' }, 'signer').refundMerchantReceivableLimitUsdc,
    ).toBe(500);
    for (const invalid of ['-1', '2.5', '', 'none', '1000000001'])
      expect(() => loadConfig({ SIGNER_MODE: 'test', REFUND_MERCHANT_RECEIVABLE_LIMIT_USDC: invalid }, 'signer')).toThrow(
        /invalid configuration: REFUND_MERCHANT_RECEIVABLE_LIMIT_USDC: must be whole USDC/,
      );
  });

  it('refuses a live token price above 1 at load in every process and environment, naming the variable', () => {
    expect(loadConfig({ LIVE_TOKEN_PRICES_USD: 'USDC=1,USDT=0.9998' }, 'api').liveTokenPrices.USDT?.text).toBe('0.9998');
    for (const appEnv of ['production', 'development'])
      for (const process of ['api', 'worker', 'signer'] as const)
        expect(() => loadConfig({ APP_ENV: appEnv, LIVE_TOKEN_PRICES_USD: 'USDC=1,USDT=1.002' }, process)).toThrow(
          /invalid configuration: .*LIVE_TOKEN_PRICES_USD: USDT=1\.002 is above 1: /,
        );
  });

  it('reads the sweep interval in seconds, 300 by default, 0 pausing the schedules; a few seconds is refused', () => {
    expect(loadConfig({}, 'worker').sweepIntervalSeconds).toBe(300);
    expect(loadConfig({ SWEEP_INTERVAL_SECONDS: '0' }, 'worker').sweepIntervalSeconds).toBe(0);
    expect(loadConfig({ SWEEP_INTERVAL_SECONDS: '3600' }, 'worker').sweepIntervalSeconds).toBe(3600);
    for (const bad of ['5', '-1', '1.5', '604801'])
      expect(() => loadConfig({ SWEEP_INTERVAL_SECONDS: bad }, 'worker'), bad).toThrow('SWEEP_INTERVAL_SECONDS');
  });

  it('reads how many days a refund may be claimed, 30 by default; zero or a fraction is refused', () => {
    expect(loadConfig({}, 'worker').refundClaimDays).toBe(30);
    expect(loadConfig({ REFUND_CLAIM_DAYS: '7' }, 'worker').refundClaimDays).toBe(7);
    for (const bad of ['0', '-1', '1.5', '3651'])
      expect(() => loadConfig({ REFUND_CLAIM_DAYS: bad }, 'worker'), bad).toThrow('REFUND_CLAIM_DAYS');
  });

  it('reads the CCTP attestation service URL, Circle’s mainnet one by default; anything but an http(s) URL is refused', () => {
    expect(loadConfig({}, 'worker').cctpAttestationUrl).toBe('https://iris-api.circle.com');
    expect(loadConfig({ CCTP_ATTESTATION_URL: 'https://iris-api-sandbox.circle.com' }, 'worker').cctpAttestationUrl).toBe(
      'https://iris-api-sandbox.circle.com',
    );
    for (const bad of ['iris-api.circle.com', 'ftp://iris-api.circle.com'])
      expect(() => loadConfig({ CCTP_ATTESTATION_URL: bad }, 'worker'), bad).toThrow('CCTP_ATTESTATION_URL');
  });

  it('refuses an API in production without a session-token secret, naming the variable; other processes need none', () => {
    // In production the API also needs a Temporal credential (test/config/temporalTls.test.ts).
    const productionEnv = { APP_ENV: 'production', TEMPORAL_API_KEY: 'key-from-cloud' };
    const production = loadConfig(productionEnv, 'api');
    expect(() => requireSessionTokenSecret(production)).toThrow(ConfigError);
    expect(() => requireSessionTokenSecret(production)).toThrow('SESSION_TOKEN_SECRET: is required when APP_ENV=production');
    const strong = 'b5f0c3e9a17d4e2c8f6a0b9d3e7c1f4a';
    expect(requireSessionTokenSecret(loadConfig({ ...productionEnv, SESSION_TOKEN_SECRET: strong }, 'api'))).toBe(strong);
  });

  it('refuses a session-token secret that is short or a placeholder, without echoing it', () => {
    for (const weak of [
      'y'.repeat(40),
      'dev-only-session-token-secret-do-not-use-in-production',
      'changeme-changeme-changeme-changeme-1234567890',
      'abcdef',
    ]) {
      let message = '';
      try {
        loadConfig({ SESSION_TOKEN_SECRET: weak }, 'api');
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, weak).toMatch(/^invalid configuration: SESSION_TOKEN_SECRET: /);
      expect(message).not.toContain(weak);
    }
  });

  it('reads the TOTP encryption key as 32 bytes of hex or base64, refusing another length or a placeholder without echoing it', () => {
    const key = randomBytes(32);
    expect(loadConfig({ TOTP_ENCRYPTION_KEY: key.toString('base64') }, 'api').totpEncryptionKey).toEqual(key);
    expect(requireTotpEncryptionKey(loadConfig({ TOTP_ENCRYPTION_KEY: key.toString('hex') }, 'api'))).toEqual(key);
    expect(() => requireTotpEncryptionKey(loadConfig({}, 'api'))).toThrow('TOTP_ENCRYPTION_KEY: is required when APP_ENV=production');
    for (const weak of ['0'.repeat(64), Buffer.from('changeme'.repeat(4)).toString('base64'), randomBytes(16).toString('hex'), 'secret']) {
      let message = '';
      try {
        loadConfig({ TOTP_ENCRYPTION_KEY: weak }, 'api');
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, weak).toMatch(/^invalid configuration: TOTP_ENCRYPTION_KEY: must be /);
      expect(message).not.toContain(weak);
    }
  });

  it('reports every invalid variable at once without echoing secrets', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'eighty', SESSION_TOKEN_SECRET: 'short-secret-value' }, 'api');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('PORT:');
    expect(message).toContain('SESSION_TOKEN_SECRET:');
    expect(message).not.toContain('short-secret-value');
  });
});

describe('deposit forwarder contracts', () => {
  const FACTORY = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
  const FORWARDER = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
  // The same two accounts in Tron's spellings: base58check and 41-hex.
  const TRON_FACTORY = 'TJhSSbZ8dVqtEiLYgva1WWcV4R4NkRCARH';
  const TRON_FORWARDER_HEX = '41e7f1725e7734ce288f8367e1bb143e90bb3f0512';

  it('has none by default: every family of both modes keeps HD addresses', () => {
    expect(loadConfig({}, 'worker').depositForwarders).toEqual({
      test: { evm: undefined, tron: undefined },
      live: { evm: undefined, tron: undefined },
    });
  });

  it('reads a pair per mode and family, EVM stored checksummed, Tron as base58 from either spelling', () => {
    const config = loadConfig(
      {
        EVM_DEPOSIT_FACTORY_LIVE: FACTORY.toLowerCase(),
        EVM_DEPOSIT_FORWARDER_LIVE: FORWARDER,
        TRON_DEPOSIT_FACTORY_TEST: TRON_FACTORY,
        TRON_DEPOSIT_FORWARDER_TEST: TRON_FORWARDER_HEX,
      },
      'api',
    );
    expect(config.depositForwarders).toEqual({
      test: { evm: undefined, tron: { factory: TRON_FACTORY, implementation: 'TX7cLPN5XdNGBzyF9ti4nsHCPZhq7qqJ7C' } },
      live: { evm: { factory: FACTORY, implementation: FORWARDER }, tron: undefined },
    });
  });

  it('refuses half a pair, naming the missing variable', () => {
    expect(() => loadConfig({ EVM_DEPOSIT_FACTORY_TEST: FACTORY }, 'worker')).toThrow(
      'invalid configuration: EVM_DEPOSIT_FORWARDER_TEST: is needed with EVM_DEPOSIT_FACTORY_TEST: set both of a pair or neither',
    );
    expect(() => loadConfig({ TRON_DEPOSIT_FORWARDER_LIVE: TRON_FACTORY }, 'worker')).toThrow(
      'TRON_DEPOSIT_FACTORY_LIVE: is needed with TRON_DEPOSIT_FORWARDER_LIVE',
    );
  });

  it('refuses malformed, zero and identical addresses, naming the variable and never echoing its value', () => {
    const refused = [
      [
        { EVM_DEPOSIT_FACTORY_TEST: FACTORY.replace('F', 'f'), EVM_DEPOSIT_FORWARDER_TEST: FORWARDER },
        'EVM_DEPOSIT_FACTORY_TEST: is not an EVM address',
      ],
      [
        { EVM_DEPOSIT_FACTORY_TEST: FACTORY, EVM_DEPOSIT_FORWARDER_TEST: `0x${'0'.repeat(40)}` },
        'EVM_DEPOSIT_FORWARDER_TEST: is the zero address',
      ],
      [
        { EVM_DEPOSIT_FACTORY_LIVE: FACTORY, EVM_DEPOSIT_FORWARDER_LIVE: FACTORY.toLowerCase() },
        'EVM_DEPOSIT_FORWARDER_LIVE: must differ from EVM_DEPOSIT_FACTORY_LIVE',
      ],
      [
        { TRON_DEPOSIT_FACTORY_TEST: FACTORY, TRON_DEPOSIT_FORWARDER_TEST: TRON_FORWARDER_HEX },
        'TRON_DEPOSIT_FACTORY_TEST: is not a Tron address',
      ],
      [
        { TRON_DEPOSIT_FACTORY_TEST: TRON_FACTORY.slice(0, -1) + 'b', TRON_DEPOSIT_FORWARDER_TEST: TRON_FORWARDER_HEX },
        'TRON_DEPOSIT_FACTORY_TEST: is not a Tron address',
      ],
      [
        { TRON_DEPOSIT_FACTORY_LIVE: TRON_FACTORY, TRON_DEPOSIT_FORWARDER_LIVE: `41${'0'.repeat(40)}` },
        'TRON_DEPOSIT_FORWARDER_LIVE: is the zero address',
      ],
    ] as const;
    for (const [env, message] of refused) {
      let error: unknown;
      try {
        loadConfig(env, 'worker');
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(message);
      for (const value of Object.values(env)) expect((error as Error).message).not.toContain(value);
    }
  });
});
