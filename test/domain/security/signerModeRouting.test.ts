import { describe, expect, it } from 'vitest';
import { signerModeRefusal } from '../../../domain/security/signerModeRouting';

describe('signerModeRefusal', () => {
  it("accepts its own mode's work", () => {
    expect(signerModeRefusal('test', { mode: 'test', index: 3 })).toBeUndefined();
    expect(signerModeRefusal('live', { mode: 'live', paymentId: 'pay_x' })).toBeUndefined();
  });

  it("refuses the other mode's work, and work that names no mode", () => {
    expect(signerModeRefusal('test', { mode: 'live', paymentId: 'pay_x' })).toBe(
      'the test signer refuses work of mode "live": only its own mode\'s work is routed to <queue>-signer-test',
    );
    expect(signerModeRefusal('live', { mode: 'test' })).toContain('the live signer refuses work of mode "test"');
    for (const input of [undefined, null, 'live', {}, { mode: 'LIVE' }])
      expect(signerModeRefusal('live', input), JSON.stringify(input)).toMatch(/^the live signer refuses work of/);
  });
});
