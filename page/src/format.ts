// Display formats. Token amounts stay strings end to end: they are trimmed, never parsed into floats.
import type { Chain } from '../../domain/chains/chains';

const CHAIN_NAMES: Record<Chain, string> = {
  ethereum: 'Ethereum',
  polygon: 'Polygon',
  arbitrum: 'Arbitrum',
  optimism: 'Optimism',
  base: 'Base',
  bsc: 'BNB Smart Chain',
  solana: 'Solana',
  tron: 'Tron',
};

export const chainName = (chain: Chain): string => CHAIN_NAMES[chain];

export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** "25.500000" → "25.50", "0.123400" → "0.1234": at least two decimals, no trailing zeros beyond them. */
export function trimTokenAmount(sixDecimals: string): string {
  const [whole = '0', fraction = ''] = sixDecimals.split('.');
  const kept = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${kept}`;
}

/** To the half minute, as docs/api.md#chains-and-tokens writes finality: "about 2.5 minutes", "about 45 seconds". */
export function approxDuration(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} seconds`;
  const minutes = Math.round(seconds / 30) / 2;
  return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** "59:07" or "1:02:03" until expiry; "0:00" once past. */
export function countdown(msLeft: number): string {
  const total = Math.max(0, Math.floor(msLeft / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Spoken form for screen readers: "59 minutes 7 seconds". */
export function countdownSpoken(msLeft: number): string {
  const total = Math.max(0, Math.floor(msLeft / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return m > 0 ? `${m} minute${m === 1 ? '' : 's'} ${s} second${s === 1 ? '' : 's'}` : `${s} second${s === 1 ? '' : 's'}`;
}
