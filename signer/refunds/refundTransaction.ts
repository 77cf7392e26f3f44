// The Solana refund transaction (docs/refunds.md#payment): create the customer's USDC account if it is missing
// (owner = the claimed destination, rent paid by the treasury), transferChecked what the customer is paid from the
// treasury's USDC account, and a memo with the ref_… id so the transfer can be matched from chain data alone. Signed
// against a durable nonce of the treasury, as a payout is (signer/payouts/payoutTransaction.ts): it lands at most once,
// however often it is sent.
import { getAddMemoInstruction } from '@solana-program/memo';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import type { Address, KeyPairSigner } from '@solana/kit';
import { associatedUsdcAccount } from '../../domain/addresses/solanaTokenAccount';
import { signTreasuryNonceTransaction, USDC_DECIMALS, type DurableNonce } from '../payouts/payoutTransaction';

export interface RefundTransfer {
  refundId: string;
  treasury: KeyPairSigner;
  mint: Address;
  destination: Address;
  amount: bigint;
  memo: boolean;
}

export async function signRefundTransaction(refund: RefundTransfer, nonce: DurableNonce) {
  const source = await associatedUsdcAccount(refund.treasury.address, refund.mint);
  const destination = await associatedUsdcAccount(refund.destination, refund.mint);
  return signTreasuryNonceTransaction(refund.treasury, nonce, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: refund.treasury,
      ata: destination,
      owner: refund.destination,
      mint: refund.mint,
    }),
    getTransferCheckedInstruction({
      source,
      mint: refund.mint,
      destination,
      authority: refund.treasury,
      amount: refund.amount,
      decimals: USDC_DECIMALS,
    }),
    ...(refund.memo ? [getAddMemoInstruction({ memo: refund.refundId })] : []),
  ]);
}
