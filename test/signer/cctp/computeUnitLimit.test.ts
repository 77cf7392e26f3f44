import { describe, expect, it } from 'vitest';
import { COMPUTE_BUDGET_PROGRAM, setComputeUnitLimitInstruction } from '../../../signer/cctp/computeUnitLimit';

describe('SetComputeUnitLimit', () => {
  it('is the Compute Budget program’s instruction 2 with the limit as u32 little endian, no accounts', () => {
    // Borsh of ComputeBudgetInstruction::SetComputeUnitLimit(300_000): tag 2, then 0x000493e0 little endian.
    expect(setComputeUnitLimitInstruction(300_000)).toEqual({
      programAddress: COMPUTE_BUDGET_PROGRAM,
      data: new Uint8Array([2, 0xe0, 0x93, 0x04, 0x00]),
    });
    expect(() => setComputeUnitLimitInstruction(0)).toThrow(RangeError);
    expect(() => setComputeUnitLimitInstruction(2 ** 32)).toThrow(RangeError);
  });
});
