// The Solana deposit sweep transaction (docs/settlement.md#deposit-sweeps): for each deposit account, transferChecked
// what is swept to the treasury's USDC account, then, when that empties it, closeAccount with the rent to the
// treasury. The treasury pays the fee, so deposit keys need no SOL; each deposit key signs as its account's token
// authority. closeAccount requires a zero balance, so a deposit landing after signing fails the whole transaction and
// the next sweep takes it.
import { getCloseAccountInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import type { Address, KeyPairSigner } from '@solana/kit';
import type { BlockhashLifetime } from '../chainWrites/solanaChainWriter';
import { associatedUsdcAccount } from '../../domain/addresses/solanaTokenAccount';
import { signTreasuryTransaction, USDC_DECIMALS } from '../payouts/payoutTransaction';

export interface SweptAccount {
  /** The deposit key: owner and token authority of `tokenAccount`. */
  owner: KeyPairSigner;
  tokenAccount: Address;
  amount: bigint;
  /** Whether `amount` empties the account, so it is closed and its rent returned. */
  close: boolean;
}

export async function signSweepTransaction(
  sweep: { treasury: KeyPairSigner; mint: Address; accounts: readonly SweptAccount[] },
  lifetime: BlockhashLifetime,
) {
  const destination = await associatedUsdcAccount(sweep.treasury.address, sweep.mint);
  return signTreasuryTransaction(
    sweep.treasury,
    lifetime,
    sweep.accounts.flatMap((account) => [
      getTransferCheckedInstruction({
        source: account.tokenAccount,
        mint: sweep.mint,
        destination,
        authority: account.owner,
        amount: account.amount,
        decimals: USDC_DECIMALS,
      }),
      ...(account.close
        ? [getCloseAccountInstruction({ account: account.tokenAccount, destination: sweep.treasury.address, owner: account.owner })]
        : []),
    ]),
  );
}
