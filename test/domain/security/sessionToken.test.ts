import { describe, expect, it } from 'vitest';
import { issueSessionToken, verifySessionToken } from '../../../domain/security/sessionToken';

const SECRET = 'a'.repeat(64);
const SESSION_A = 'cs_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const SESSION_B = 'cs_01BX5ZZKBKACTAV9WEVGEMMVRZ';

describe('session tokens', () => {
  it('verifies to the session it was issued for', () => {
    expect(verifySessionToken(issueSessionToken(SESSION_A, SECRET), SECRET)).toBe(SESSION_A);
  });

  it('is stable, so a replayed create returns the same checkout URL', () => {
    expect(issueSessionToken(SESSION_A, SECRET)).toBe(issueSessionToken(SESSION_A, SECRET));
  });

  it('keeps its derivation, so links already handed out stay valid', () => {
    expect(issueSessionToken(SESSION_A, SECRET)).toBe(`${SESSION_A}.5-QesKes0PQGtGyHs6WZW0Yrqi_nO-O7VUpJ2HMZzQQ`);
  });

  it("never grants another session: a token's signature does not fit a different id", () => {
    const [, signature] = issueSessionToken(SESSION_A, SECRET).split('.');
    expect(verifySessionToken(`${SESSION_B}.${signature}`, SECRET)).toBeUndefined();
  });

  it.each(['', 'garbage', `${SESSION_A}.`, `${SESSION_A}.abc.def`, `cs_bad.${'x'.repeat(43)}`])('rejects %j', (token) => {
    expect(verifySessionToken(token, SECRET)).toBeUndefined();
  });

  it('rejects a token issued with another secret', () => {
    expect(verifySessionToken(issueSessionToken(SESSION_A, 'b'.repeat(64)), SECRET)).toBeUndefined();
  });
});
