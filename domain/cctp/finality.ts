/** CCTP V2 finality thresholds (Circle: cctp-finality-and-fees): at most 1000 is Fast, 2000 is Standard. */
export const FINALITY_THRESHOLD_FAST = 1000;
export const FINALITY_THRESHOLD_STANDARD = 2000;

export type CctpSpeed = 'standard' | 'fast';

export function finalityThreshold(speed: CctpSpeed): number {
  return speed === 'fast' ? FINALITY_THRESHOLD_FAST : FINALITY_THRESHOLD_STANDARD;
}
