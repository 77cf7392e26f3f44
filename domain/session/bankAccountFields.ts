// Formats of the bank account fields an operator enters, checked before a customer is ever told to pay
// into them. Values are normalised (spaces removed, upper case) so they print the way banks expect.
import { z } from '../wire/validationMessages';

/** ISO 13616: country, two check digits, up to 30 alphanumerics; valid when the number mod 97 is 1. */
function ibanChecksumValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

const compact = (value: string) => value.replace(/[\s-]/g, '').toUpperCase();

export const Iban = z
  .string()
  .transform(compact)
  .refine((v) => /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(v) && ibanChecksumValid(v), 'Must be a valid IBAN (check digits included)');

/** ISO 9362: bank, country, location, optional branch. */
export const SwiftBic = z
  .string()
  .transform(compact)
  .refine((v) => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(v), 'Must be an 8 or 11 character SWIFT/BIC');

/** UK sort code, printed as 12-34-56. */
export const SortCode = z
  .string()
  .transform((v) => v.replace(/[\s-]/g, ''))
  .refine((v) => /^\d{6}$/.test(v), 'Must be six digits, e.g. 12-34-56')
  .transform((v) => `${v.slice(0, 2)}-${v.slice(2, 4)}-${v.slice(4)}`);

/** Domestic account numbers differ per country; this only keeps out what no bank would issue. */
export const AccountNumber = z
  .string()
  .transform(compact)
  .refine((v) => /^[A-Z0-9]{4,34}$/.test(v), 'Must be 4 to 34 letters or digits');
