// The treasury's Solana transactions (docs/settlement.md#payouts): the treasury is fee payer, and the authority of the
// durable nonce a payout or refund is signed against (its first instruction advances that nonce). What a transfer
// carries is treasuryTransfer.ts's.
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  setTransactionMessageLifetimeUsingDurableNonce,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type Nonce,
  type Signature,
  type KeyPairSigner,
} from '@solana/kit';
import type { BlockhashLifetime, SolanaChainWriterDeps } from '../chainWrites/solanaChainWriter';
import { rpcDeadline } from '../../activities/http/rpcDeadline';

/** USDC's decimals on Solana; transferChecked refuses a mint with others. */
export const USDC_DECIMALS = 6;

/** A treasury nonce account and the nonce it holds: a transaction signed against it lands at most once, ever. */
export interface DurableNonce {
  account: Address;
  value: string;
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

/** Signed against the treasury's durable nonce: kit puts the AdvanceNonceAccount instruction first. */
export function signTreasuryNonceTransaction(treasury: KeyPairSigner, nonce: DurableNonce, instructions: Instruction[]) {
  return pipe(
    createTransactionMessage({ version: 0 }),
    (message) => setTransactionMessageFeePayerSigner(treasury, message),
    (message) =>
      setTransactionMessageLifetimeUsingDurableNonce(
        { nonce: nonce.value as Nonce, nonceAccountAddress: nonce.account, nonceAuthorityAddress: treasury.address },
        message,
      ),
    (message) => appendTransactionMessageInstructions(instructions, message),
    (message) => signTransactionMessageWithSigners(message),
  );
}

/**
 * The node's record of a landed treasury transaction: what it cost the treasury in SOL (fee, and rent beyond it) and
 * its block time, which a settlement reports as settled_at.
 */
export async function landedTransaction(
  deps: SolanaChainWriterDeps,
  signature: string,
): Promise<{ feeLamports: bigint; rentLamports: bigint; blockTime: Date | null }> {
  const landed = await deps.rpc
    .getTransaction(signature as Signature, { encoding: 'base64', commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
    .send(rpcDeadline(deps.rpcTimeoutMs));
  if (!landed?.meta) throw new Error(`the node has no record of landed payout transaction ${signature} yet`);
  // The treasury is the fee payer: the first account, whose balance change is everything the transaction cost it.
  const spent = (landed.meta.preBalances[0] ?? 0n) - (landed.meta.postBalances[0] ?? 0n);
  const blockTime = landed.blockTime === null ? null : new Date(Number(landed.blockTime) * 1000);
  return { feeLamports: landed.meta.fee, rentLamports: spent - landed.meta.fee, blockTime };
}
