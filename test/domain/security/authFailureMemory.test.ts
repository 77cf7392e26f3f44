import { describe, expect, it } from 'vitest';
import { AuthFailureMemory, PROVEN_KEY_TTL_MS } from '../../../domain/security/authFailureMemory';

describe('AuthFailureMemory', () => {
  it('blocks an address until the end of its window, in whole seconds of at least 1', () => {
    const memory = new AuthFailureMemory();
    expect(memory.blockedForSeconds('203.0.113.1', 0)).toBeUndefined();
    memory.block('203.0.113.1', 42_500);
    expect(memory.blockedForSeconds('203.0.113.1', 0)).toBe(43);
    expect(memory.blockedForSeconds('203.0.113.1', 42_400)).toBe(1);
    expect(memory.blockedForSeconds('203.0.113.1', 42_500)).toBeUndefined();
    expect(memory.blockedForSeconds('203.0.113.2', 0)).toBeUndefined();
  });

  it('vouches for a proven key for an hour after its last success', () => {
    const memory = new AuthFailureMemory();
    expect(memory.isProven('aa', 0)).toBe(false);
    memory.prove('aa', 0);
    memory.prove('aa', 1_000);
    expect(memory.isProven('aa', PROVEN_KEY_TTL_MS)).toBe(true);
    expect(memory.isProven('aa', PROVEN_KEY_TTL_MS + 1_000)).toBe(false);
  });

  it('holds at most its capacity, evicting the entry set longest ago', () => {
    const memory = new AuthFailureMemory(2);
    memory.block('a', 60_000);
    memory.block('b', 60_000);
    memory.block('a', 60_000);
    memory.block('c', 60_000);
    expect(['a', 'b', 'c'].map((address) => memory.blockedForSeconds(address, 0) !== undefined)).toEqual([true, false, true]);
  });
});
