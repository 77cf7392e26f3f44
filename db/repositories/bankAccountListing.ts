// Operator reads of bank accounts (bankAccounts.ts holds the writes and the customer-facing reads).
// Columns are aliased straight to the BankAccount shape.
import type { Queryable } from '../client';
import type { BankAccount } from './bankAccounts';

export async function listBankAccounts(sql: Queryable, merchantId: string): Promise<BankAccount[]> {
  return sql<BankAccount[]>`
    select id, merchant_id as "merchantId", account_name as "accountName", bank_name as "bankName", iban, swift_bic as "swiftBic",
           account_number as "accountNumber", sort_code as "sortCode", currency, active, created_at as "createdAt", updated_at as "updatedAt"
    from bank_accounts where merchant_id = ${merchantId} order by active desc, currency, created_at`;
}

export async function findBankAccount(sql: Queryable, id: string): Promise<BankAccount | undefined> {
  const [row] = await sql<BankAccount[]>`
    select id, merchant_id as "merchantId", account_name as "accountName", bank_name as "bankName", iban, swift_bic as "swiftBic",
           account_number as "accountNumber", sort_code as "sortCode", currency, active, created_at as "createdAt", updated_at as "updatedAt"
    from bank_accounts where id = ${id}`;
  return row;
}
