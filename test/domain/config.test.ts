import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, requireSessionTokenSecret } from '../../config/env';

describe('configuration', () => {
  it('starts on documented defaults with nothing set', () => {
    const config = loadConfig({});
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
    expect(loadConfig({}).minimumDepositCents).toBe(1);
    expect(loadConfig({ MINIMUM_DEPOSIT_CENTS: '50' }).minimumDepositCents).toBe(50);
    expect(() => loadConfig({ MINIMUM_DEPOSIT_CENTS: '0.5' })).toThrow('MINIMUM_DEPOSIT_CENTS');
  });

  it('refuses an API in production without a session-token secret, naming the variable; other processes need none', () => {
    const production = loadConfig({ APP_ENV: 'production' });
    expect(() => requireSessionTokenSecret(production)).toThrow(ConfigError);
    expect(() => requireSessionTokenSecret(production)).toThrow('SESSION_TOKEN_SECRET: is required when APP_ENV=production');
    expect(requireSessionTokenSecret(loadConfig({ APP_ENV: 'production', SESSION_TOKEN_SECRET: 'y'.repeat(40) }))).toBe('y'.repeat(40));
  });

  it('reports every invalid variable at once without echoing secrets', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'eighty', SESSION_TOKEN_SECRET: 'short-secret-value' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('PORT:');
    expect(message).toContain('SESSION_TOKEN_SECRET:');
    expect(message).not.toContain('short-secret-value');
  });
});
