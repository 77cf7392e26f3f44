// The customer's side of a Solana payment, as a wallet makes it: over JSON-RPC only, a transferChecked of USDC
// from the customer's associated token account to the deposit wallet's (created if missing), signed against the
// latest blockhash, sent with preflight and followed with getSignatureStatuses until confirmed.
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';

export interface UsdcPayment {
  rpcUrl: string;
  from: KeyPairSigner;
  mint: Address;
  decimals: number;
  to: Address;
  amount: bigint;
}

const STATUS_POLL_MS = 100;

export async function associatedTokenAccount(owner: Address, mint: Address): Promise<Address> {
  const [account] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return account;
}

/** Resolves once the transaction is in a block (`confirmed`), with its signature and slot; rejects if it failed. */
export async function payUsdc(payment: UsdcPayment, timeoutMs = 30_000): Promise<{ signature: string; slot: bigint }> {
  const rpc = createSolanaRpc(payment.rpcUrl);
  const source = await associatedTokenAccount(payment.from.address, payment.mint);
  const destination = await associatedTokenAccount(payment.to, payment.mint);
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const transaction = await pipe(
    createTransactionMessage({ version: 0 }),
    (message) => setTransactionMessageFeePayerSigner(payment.from, message),
    (message) => setTransactionMessageLifetimeUsingBlockhash(lifetime, message),
    (message) =>
      appendTransactionMessageInstructions(
        [
          getCreateAssociatedTokenIdempotentInstruction({ payer: payment.from, ata: destination, owner: payment.to, mint: payment.mint }),
          getTransferCheckedInstruction({
            source,
            mint: payment.mint,
            destination,
            authority: payment.from,
            amount: payment.amount,
            decimals: payment.decimals,
          }),
        ],
        message,
      ),
    (message) => signTransactionMessageWithSigners(message),
  );
  const signature = await rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' }).send();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { value } = await rpc.getSignatureStatuses([signature]).send();
    const status = value[0];
    if (status?.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(status.err)}`);
    if (status && status.confirmationStatus !== 'processed') return { signature, slot: status.slot };
    if (Date.now() > deadline) throw new Error(`transaction ${signature} was not confirmed within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, STATUS_POLL_MS));
  }
}

/** The owner's USDC in base units: 0 while it has no associated token account. */
export async function usdcBalance(rpcUrl: string, owner: Address, mint: Address): Promise<bigint> {
  const rpc = createSolanaRpc(rpcUrl);
  const account = await associatedTokenAccount(owner, mint);
  const { value } = await rpc.getAccountInfo(account, { encoding: 'base64' }).send();
  if (!value) return 0n;
  return BigInt((await rpc.getTokenAccountBalance(account).send()).value.amount);
}
