import { describe, expect, it } from 'vitest';
import { REDACTED, redactArguments, resolveOperator } from '../../../domain/security/adminAudit';

const login = () => 'deploy';

describe('the operator of an admin command', () => {
  it('takes --operator over CHECKOUT_OPERATOR over the login name', () => {
    expect(resolveOperator('alice', 'bob', login)).toEqual({ operator: { name: 'alice', source: 'option' } });
    expect(resolveOperator(undefined, 'bob', login)).toEqual({ operator: { name: 'bob', source: 'env' } });
    expect(resolveOperator(undefined, undefined, login)).toEqual({ operator: { name: 'deploy', source: 'os' } });
  });

  it('treats a blank name as not given, and a login the system cannot tell as unknown', () => {
    expect(resolveOperator('  ', ' bob ', login)).toEqual({ operator: { name: 'bob', source: 'env' } });
    expect(resolveOperator('', '', () => undefined)).toEqual({ operator: { name: 'unknown', source: 'os' } });
  });

  it('refuses a name it cannot store, naming where it came from, under the login name', () => {
    expect(resolveOperator('a\nb', 'bob', login)).toEqual({
      operator: { name: 'deploy', source: 'os' },
      problem: expect.stringMatching(/^--operator: Must be 1 to 100 characters/),
    });
    expect(resolveOperator(undefined, 'x'.repeat(101), login)).toEqual({
      operator: { name: 'deploy', source: 'os' },
      problem: expect.stringMatching(/^CHECKOUT_OPERATOR: /),
    });
  });
});

describe('audited arguments', () => {
  it("replaces a secret option's value by its declared kind, whatever the value looks like, and keeps the rest", () => {
    const secret = new Set(['password']);
    expect(
      redactArguments({ password: 'plain words', label: 'mk_live_looks_like_a_key', clear: true, mode: undefined }, (name) =>
        secret.has(name),
      ),
    ).toEqual({
      password: REDACTED,
      label: 'mk_live_looks_like_a_key',
      clear: true,
    });
  });
});
