// The Compute Budget program's SetComputeUnitLimit, written out (discriminator 2, then the limit as u32 little
// endian: solana-sdk compute-budget-interface) rather than pulled in as another package for five bytes. A receive
// needs ~220k compute units, past the 200k a transaction gets by default.
import { address, type Instruction } from '@solana/kit';

export const COMPUTE_BUDGET_PROGRAM = address('ComputeBudget111111111111111111111111111111');
const SET_COMPUTE_UNIT_LIMIT = 2;

export function setComputeUnitLimitInstruction(units: number): Instruction {
  if (!Number.isInteger(units) || units <= 0 || units > 0xffff_ffff)
    throw new RangeError(`a compute unit limit is a positive u32, got ${units}`);
  const data = new Uint8Array(5);
  data[0] = SET_COMPUTE_UNIT_LIMIT;
  new DataView(data.buffer).setUint32(1, units, true);
  return { programAddress: COMPUTE_BUDGET_PROGRAM, data };
}
