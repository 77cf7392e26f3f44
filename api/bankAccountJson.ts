// A bank account as the admin CLI's --json and the dashboard show it.
import type { BankAccount } from '../db/repositories/bankAccounts';

export const bankAccountJson = (a: BankAccount) => ({
  bank_account_id: a.id,
  merchant_id: a.merchantId,
  currency: a.currency,
  account_name: a.accountName,
  bank_name: a.bankName,
  iban: a.iban,
  swift_bic: a.swiftBic,
  account_number: a.accountNumber,
  sort_code: a.sortCode,
  active: a.active,
  created_at: a.createdAt.toISOString(),
  updated_at: a.updatedAt.toISOString(),
});
