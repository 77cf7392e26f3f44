import { encodeFunctionData, getAddress, toHex } from 'viem';
import type { Address, Hex } from 'viem';
import { getAddressEncoder } from '@solana/kit';
import type { Address as SolanaAddress } from '@solana/kit';
import { tokenMessengerV2Abi } from './cctpAbi';
import { finalityThreshold } from './finality';
import type { CctpSpeed } from './finality';
import { EMPTY_BYTES32 } from './messageV2';

export interface DepositForBurnArgs {
  amount: bigint;
  destinationDomain: number;
  mintRecipient: Hex;
  burnToken: Address;
  maxFee: bigint;
  speed: CctpSpeed;
}

/** One burn is capped at 10 M USDC by Circle's per-message burn limit. */
export const MAX_BURN_AMOUNT = 10_000_000n * 1_000_000n;

export class DepositForBurnError extends Error {
  override name = 'DepositForBurnError';
}

/**
 * Calldata of TokenMessengerV2.depositForBurn with destinationCaller 0, so anyone (our relayer or Circle's) may
 * complete the mint. Refuses what the contract would revert on, before any gas is spent.
 */
export function depositForBurnCalldata(args: DepositForBurnArgs): Hex {
  if (args.amount <= 0n) throw new DepositForBurnError('the burn amount must be positive');
  if (args.amount > MAX_BURN_AMOUNT) throw new DepositForBurnError(`one burn carries at most ${MAX_BURN_AMOUNT} minor units`);
  if (args.maxFee < 0n || args.maxFee >= args.amount) throw new DepositForBurnError('maxFee must be below the amount');
  if (/^0x0*$/.test(args.mintRecipient)) throw new DepositForBurnError('the mint recipient must not be zero');
  return encodeFunctionData({
    abi: tokenMessengerV2Abi,
    functionName: 'depositForBurn',
    args: [
      args.amount,
      args.destinationDomain,
      args.mintRecipient,
      getAddress(args.burnToken),
      EMPTY_BYTES32,
      args.maxFee,
      finalityThreshold(args.speed),
    ],
  });
}

/**
 * A Solana address as the bytes32 CCTP messages carry. As mintRecipient it must be the USDC *token account*
 * (not its owner's wallet), and that account must exist when the mint runs.
 */
export function solanaAddressBytes32(solanaAddress: SolanaAddress): Hex {
  return toHex(getAddressEncoder().encode(solanaAddress) as Uint8Array);
}
