import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, requireSessionTokenSecret } from '../../config/env';

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

  it('reads the payout re-read threshold in whole USDC, 1000 by default, 0 re-reading every payout', () => {
    expect(loadConfig({}, 'signer').settlementRpcRecheckAboveUsdc).toBe(1000);
    expect(loadConfig({ SETTLEMENT_RPC_RECHECK_ABOVE_USDC: '0' }, 'signer').settlementRpcRecheckAboveUsdc).toBe(0);
    for (const invalid of ['-1', '2.5', 'lots']) {
      expect(() => loadConfig({ SETTLEMENT_RPC_RECHECK_ABOVE_USDC: invalid }, 'signer')).toThrow(/invalid configuration: SETTLEMENT_RPC_RECHECK_ABOVE_USDC: /);
    }
  });

  it('reads the sweep interval in seconds, 300 by default, 0 pausing the schedules; a few seconds is refused', () => {
    expect(loadConfig({}, 'worker').sweepIntervalSeconds).toBe(300);
    expect(loadConfig({ SWEEP_INTERVAL_SECONDS: '0' }, 'worker').sweepIntervalSeconds).toBe(0);
    expect(loadConfig({ SWEEP_INTERVAL_SECONDS: '3600' }, 'worker').sweepIntervalSeconds).toBe(3600);
    for (const bad of ['5', '-1', '1.5', '604801']) expect(() => loadConfig({ SWEEP_INTERVAL_SECONDS: bad }, 'worker'), bad).toThrow('SWEEP_INTERVAL_SECONDS');
  });

  it('reads the CCTP attestation service URL, Circle’s mainnet one by default; anything but an http(s) URL is refused', () => {
    expect(loadConfig({}, 'worker').cctpAttestationUrl).toBe('https://iris-api.circle.com');
    expect(loadConfig({ CCTP_ATTESTATION_URL: 'https://iris-api-sandbox.circle.com' }, 'worker').cctpAttestationUrl).toBe('https://iris-api-sandbox.circle.com');
    for (const bad of ['iris-api.circle.com', 'ftp://iris-api.circle.com']) expect(() => loadConfig({ CCTP_ATTESTATION_URL: bad }, 'worker'), bad).toThrow('CCTP_ATTESTATION_URL');
  });

  it('refuses an API in production without a session-token secret, naming the variable; other processes need none', () => {
    const production = loadConfig({ APP_ENV: 'production' }, 'api');
    expect(() => requireSessionTokenSecret(production)).toThrow(ConfigError);
    expect(() => requireSessionTokenSecret(production)).toThrow('SESSION_TOKEN_SECRET: is required when APP_ENV=production');
    const strong = 'b5f0c3e9a17d4e2c8f6a0b9d3e7c1f4a';
    expect(requireSessionTokenSecret(loadConfig({ APP_ENV: 'production', SESSION_TOKEN_SECRET: strong }, 'api'))).toBe(strong);
  });

  it('refuses a session-token secret that is short or a placeholder, without echoing it', () => {
    for (const weak of ['y'.repeat(40), 'dev-only-session-token-secret-do-not-use-in-production', 'changeme-changeme-changeme-changeme-1234567890', 'abcdef']) {
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
