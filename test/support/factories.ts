import type { Sql } from '../../db/client';
import { createApiKey } from '../../db/repositories/apiKeys';
import { insertBankAccount, type BankAccount, type NewBankAccount } from '../../db/repositories/bankAccounts';
import { insertMerchant, type Merchant } from '../../db/repositories/merchants';
import { ALL_TOKEN_CHAIN_PAIRS, type TokenChainPairs } from '../../domain/chains/chains';
import type { UnderpaidExpiry } from '../../domain/wire/session';

export interface TestMerchant {
  merchant: Merchant;
  testKey: string;
  liveKey: string;
}

export async function createTestMerchant(
  sql: Sql,
  overrides: { name?: string; supportedTokens?: TokenChainPairs; sessionLifetimeSeconds?: number; underpaidExpiry?: UnderpaidExpiry } = {},
): Promise<TestMerchant> {
  const merchant = await insertMerchant(sql, {
    name: overrides.name ?? 'Test merchant',
    supportedTokens: overrides.supportedTokens ?? ALL_TOKEN_CHAIN_PAIRS,
    ...(overrides.sessionLifetimeSeconds ? { sessionLifetimeSeconds: overrides.sessionLifetimeSeconds } : {}),
    ...(overrides.underpaidExpiry ? { underpaidExpiry: overrides.underpaidExpiry } : {}),
  });
  const testKey = await createApiKey(sql, merchant.id, 'test');
  const liveKey = await createApiKey(sql, merchant.id, 'live');
  return { merchant, testKey: testKey.raw, liveKey: liveKey.raw };
}

export function sessionRequest(merchantId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    merchant_id: merchantId,
    transaction_id: `order-${Math.random().toString(36).slice(2, 10)}`,
    amount_usd: 42.5,
    webhook_url: 'https://merchant.example/webhooks/checkout',
    ...overrides,
  };
}

/** An active bank account of `merchantId` in `currency`; IBAN-style unless overridden. */
export function createBankAccount(
  sql: Sql,
  merchantId: string,
  currency: string,
  overrides: Partial<NewBankAccount> = {},
): Promise<BankAccount> {
  return insertBankAccount(sql, {
    merchantId,
    currency,
    accountName: 'Test Merchant Ltd',
    bankName: 'Example Bank',
    iban: `DE89370400440532${Math.floor(Math.random() * 1e6)
      .toString()
      .padStart(6, '0')}`,
    swiftBic: 'COBADEFFXXX',
    ...overrides,
  });
}
