// An owner's associated USDC account on Solana: where the treasury pays from and merchants are paid to, derived the
// same way by the signer that writes payouts and by the session worker and tools that read balances.
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { Address } from '@solana/kit';

export async function associatedUsdcAccount(owner: Address, mint: Address): Promise<Address> {
  const [account] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return account;
}
