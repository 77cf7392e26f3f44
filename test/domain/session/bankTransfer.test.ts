import { describe, expect, it } from 'vitest';
import { bankTransferReference, referenceNamesSession } from '../../../domain/session/bankTransfer';

const SESSION = 'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const OTHER = 'cs_01BX5ZZKBKACTAV9WEVGEMMVRZ';

describe('bank transfer references', () => {
  it("accepts a statement reference that contains the session's, however the bank spaced or cased it", () => {
    const reference = bankTransferReference(SESSION);
    expect(reference).toMatch(/^CS-[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(referenceNamesSession(reference, SESSION)).toBe(true);
    expect(referenceNamesSession(`Order 42 ${reference.toLowerCase()} 1/2`, SESSION)).toBe(true);
    expect(referenceNamesSession(reference.replace('-', ' ').replace(/(.{6})/, '$1 '), SESSION)).toBe(true);
  });

  it("refuses another session's reference, a truncated one and one without it", () => {
    const reference = bankTransferReference(SESSION);
    expect(referenceNamesSession(bankTransferReference(OTHER), SESSION)).toBe(false);
    expect(referenceNamesSession(reference.slice(0, -1), SESSION)).toBe(false);
    expect(referenceNamesSession('Invoice 2024-118', SESSION)).toBe(false);
  });
});
