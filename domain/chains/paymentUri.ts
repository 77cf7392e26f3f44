// Wallet deep links for the QR code: EIP-681 on EVM chains, Solana Pay on solana, a tron: URI on tron.
import type { Chain } from './chains';
import { CHAIN_FACTS } from './chains';

export interface PaymentUriInput {
  chain: Chain;
  /** EVM chain id to put in the link (the test network's for test keys). */
  evmChainId?: number;
  tokenAddress: string;
  depositAddress: string;
  baseUnits: bigint;
  decimals: number;
  label?: string;
}

function decimalAmount(baseUnits: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const fraction = (baseUnits % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${baseUnits / scale}.${fraction}` : `${baseUnits / scale}`;
}

export function paymentUri(input: PaymentUriInput): string {
  const family = CHAIN_FACTS[input.chain].family;
  if (family === 'evm') {
    const chainId = input.evmChainId ?? Number(CHAIN_FACTS[input.chain].chainId);
    return `ethereum:${input.tokenAddress}@${chainId}/transfer?address=${input.depositAddress}&uint256=${input.baseUnits}`;
  }
  if (family === 'solana') {
    const params = new URLSearchParams({ amount: decimalAmount(input.baseUnits, input.decimals), 'spl-token': input.tokenAddress });
    if (input.label) params.set('label', input.label);
    return `solana:${input.depositAddress}?${params.toString()}`;
  }
  const params = new URLSearchParams({ amount: decimalAmount(input.baseUnits, input.decimals), token: input.tokenAddress });
  return `tron:${input.depositAddress}?${params.toString()}`;
}
