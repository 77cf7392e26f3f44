// The Solana payout transaction (docs/settlement.md#payouts): create the merchant's USDC account if it is missing
// (owner = merchant wallet, paid by the treasury), transferChecked the amount from the treasury's USDC account,
// and a memo with the pay_… id so a reconciler can match the transfer from chain data alone (left out only where
// the chain cannot run the Memo program: TreasuryPayoutDeps.memo). The treasury is fee payer and token authority.
import { getAddMemoInstruction } from '@solana-program/memo';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { associatedUsdcAccount } from '../../domain/addresses/solanaTokenAccount';
import type { BlockhashLifetime } from '../chainWrites/solanaChainWriter';

/** USDC's decimals on Solana; transferChecked refuses a mint with others. */
export const USDC_DECIMALS = 6;

export interface PayoutTransfer {
  paymentId: string;
  treasury: KeyPairSigner;
  mint: Address;
  merchantWallet: Address;
  amount: bigint;
  memo: boolean;
}

/** A version 0 transaction the treasury pays for, signed by it and every signer the instructions name. */
export function signTreasuryTransaction(treasury: KeyPairSigner, lifetime: BlockhashLifetime, instructions: Instruction[]) {
  return pipe(
    createTransactionMessage({ version: 0 }),
    (message) => setTransactionMessageFeePayerSigner(treasury, message),
    (message) => setTransactionMessageLifetimeUsingBlockhash(lifetime, message),
    (message) => appendTransactionMessageInstructions(instructions, message),
    (message) => signTransactionMessageWithSigners(message),
  );
}

export async function signPayoutTransaction(payout: PayoutTransfer, lifetime: BlockhashLifetime) {
  const source = await associatedUsdcAccount(payout.treasury.address, payout.mint);
  const destination = await associatedUsdcAccount(payout.merchantWallet, payout.mint);
  return signTreasuryTransaction(payout.treasury, lifetime, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: payout.treasury,
      ata: destination,
      owner: payout.merchantWallet,
      mint: payout.mint,
    }),
    getTransferCheckedInstruction({
      source,
      mint: payout.mint,
      destination,
      authority: payout.treasury,
      amount: payout.amount,
      decimals: USDC_DECIMALS,
    }),
    ...(payout.memo ? [getAddMemoInstruction({ memo: payout.paymentId })] : []),
  ]);
}
