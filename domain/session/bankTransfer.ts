// Bank transfer (docs/api.md#bank-transfer): the currencies a session can be paid in by bank, the account
// the customer pays into, and the payment reference that ties the transfer to the session.
import { sha256 } from '@noble/hashes/sha2.js';
import { SessionTokenQuery } from '../wire/sessionTokenQuery';
import { z } from '../wire/validationMessages';

export const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'Must be an ISO 4217 currency code such as EUR');

export const BankCurrenciesResponse = z
  .object({
    currencies: z
      .array(CurrencyCode)
      .meta({ description: 'Distinct ISO 4217 codes of active bank accounts, sorted, unique; [] when none.' }),
  })
  .strict();
export type BankCurrenciesResponse = z.infer<typeof BankCurrenciesResponse>;

export const BankDetailsQuery = SessionTokenQuery.extend({
  currency: CurrencyCode.optional().meta({ description: 'One of the bank-currencies values; may be omitted when there is exactly one.' }),
}).strict();
export type BankDetailsQuery = z.infer<typeof BankDetailsQuery>;

/** The decoded content of encoded_bank_details. Every key is always present; null means the account has no such field. */
export const BankDetails = z
  .object({
    account_name: z.string(),
    bank_name: z.string(),
    iban: z.string().nullable(),
    swift_bic: z.string().nullable(),
    account_number: z.string().nullable(),
    sort_code: z.string().nullable(),
    reference: z.string().meta({ description: 'Payment reference the customer must quote; unique to the session.' }),
    currency: CurrencyCode,
    amount_usd: z.number(),
  })
  .strict();
export type BankDetails = z.infer<typeof BankDetails>;

export const BankDetailsResponse = z
  .object({ encoded_bank_details: z.string().meta({ description: 'Base64 of the JSON object BankDetails.' }) })
  .strict();
export type BankDetailsResponse = z.infer<typeof BankDetailsResponse>;

export function encodeBankDetails(details: BankDetails): string {
  return Buffer.from(JSON.stringify(details), 'utf8').toString('base64');
}

// Crockford's alphabet: no I, L, O or U, so a reference read aloud or retyped from a banking app survives.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * `CS-` + 10 Crockford base32 characters (50 bits) of SHA-256(session id). Derived, not stored, so the API,
 * the workflow and an operator's matching tool compute the same value. Transfers are matched within one
 * merchant's open sessions, where 50 bits make a collision negligible (about 1 in 10^9 at 1,000 open sessions).
 */
export function bankTransferReference(sessionId: string): string {
  const digest = sha256(new TextEncoder().encode(`bank-transfer-reference:v1:${sessionId}`));
  let bits = 0n;
  for (const byte of digest.subarray(0, 7)) bits = (bits << 8n) | BigInt(byte);
  bits >>= 6n;
  let out = '';
  for (let i = 0; i < 10; i += 1) {
    out = CROCKFORD.charAt(Number(bits & 31n)) + out;
    bits >>= 5n;
  }
  return `CS-${out}`;
}

const compactReference = (value: string) => value.replace(/[\s-]/g, '').toUpperCase();

/**
 * Whether a reference from a bank statement is for this session: it contains the session's reference, however
 * the bank spaced, hyphenated or cased it. Text around it is allowed (an order number, "1/2"), so the parts of
 * a split payment can carry distinct references and add up.
 */
export function referenceNamesSession(statementReference: string, sessionId: string): boolean {
  return compactReference(statementReference).includes(compactReference(bankTransferReference(sessionId)));
}

export type CurrencyChoice = { currency: string } | { problem: 'none' | 'ambiguous' | 'unavailable'; available: string[] };

/** docs/api.md#bank-transfer: omitted with one currency → that one; omitted with several → required; given → must be listed. */
export function chooseBankCurrency(requested: string | undefined, available: string[]): CurrencyChoice {
  if (available.length === 0) return { problem: 'none', available };
  if (requested === undefined) {
    const [only] = available;
    return available.length === 1 && only ? { currency: only } : { problem: 'ambiguous', available };
  }
  return available.includes(requested) ? { currency: requested } : { problem: 'unavailable', available };
}
