// Bank accounts of a merchant's organisation. Only active accounts are offered to customers.
import { newBankAccountId } from '../../domain/wire/ids';
import type { Queryable } from '../client';

export interface BankAccount {
  id: string;
  merchantId: string;
  accountName: string;
  bankName: string;
  iban: string | null;
  swiftBic: string | null;
  accountNumber: string | null;
  sortCode: string | null;
  currency: string;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type NewBankAccount = Pick<BankAccount, 'merchantId' | 'accountName' | 'bankName' | 'currency'> &
  Partial<Pick<BankAccount, 'iban' | 'swiftBic' | 'accountNumber' | 'sortCode' | 'active'>>;

interface BankAccountRow {
  id: string;
  merchant_id: string;
  account_name: string;
  bank_name: string;
  iban: string | null;
  swift_bic: string | null;
  account_number: string | null;
  sort_code: string | null;
  currency: string;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

const toAccount = (r: BankAccountRow): BankAccount => ({
  id: r.id,
  merchantId: r.merchant_id,
  accountName: r.account_name,
  bankName: r.bank_name,
  iban: r.iban,
  swiftBic: r.swift_bic,
  accountNumber: r.account_number,
  sortCode: r.sort_code,
  currency: r.currency,
  active: r.active,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertBankAccount(sql: Queryable, a: NewBankAccount): Promise<BankAccount> {
  const [row] = await sql<BankAccountRow[]>`
    insert into bank_accounts (id, merchant_id, account_name, bank_name, iban, swift_bic, account_number, sort_code, currency, active)
    values (${newBankAccountId()}, ${a.merchantId}, ${a.accountName}, ${a.bankName}, ${a.iban ?? null}, ${a.swiftBic ?? null},
            ${a.accountNumber ?? null}, ${a.sortCode ?? null}, ${a.currency}, ${a.active ?? true})
    returning *`;
  return toAccount(row!);
}

export async function setBankAccountActive(sql: Queryable, id: string, active: boolean): Promise<void> {
  await sql`update bank_accounts set active = ${active}, updated_at = now() where id = ${id}`;
}

/** Distinct currencies of the merchant's active accounts, sorted ascending (byte order: codes are A–Z). */
export async function activeBankCurrencies(sql: Queryable, merchantId: string): Promise<string[]> {
  const rows = await sql<{ currency: string }[]>`
    select currency from bank_accounts where merchant_id = ${merchantId} and active group by currency order by currency collate "C"`;
  return rows.map((r) => r.currency);
}

export async function findActiveBankAccount(sql: Queryable, merchantId: string, currency: string): Promise<BankAccount | undefined> {
  const [row] = await sql<BankAccountRow[]>`
    select * from bank_accounts where merchant_id = ${merchantId} and currency = ${currency} and active`;
  return row && toAccount(row);
}
