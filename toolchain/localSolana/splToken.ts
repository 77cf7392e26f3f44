// Real SPL token operations on the local chain, signed by local keypairs: a 6-decimal mint, associated token
// accounts, mintTo and transferChecked. Each helper sends one transaction into the chain's current slot.
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToCheckedInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import type { LocalSolanaChain } from './localSolanaChain';

export interface SentTransaction {
  signature: string;
  slot: bigint;
  failed: boolean;
}

export interface TestMint {
  address: Address;
  decimals: number;
  authority: KeyPairSigner;
}

export async function fundedSigner(chain: LocalSolanaChain, sol = 10n): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  chain.svm.airdrop(signer.address, lamports(sol * 1_000_000_000n));
  return signer;
}

/** Signs `instructions` with `payer` (and any signer they name) against the chain's latest blockhash and sends them. */
export async function sendInstructions(
  chain: LocalSolanaChain,
  payer: KeyPairSigner,
  instructions: Instruction[],
  options: { allowFailure?: boolean } = {},
): Promise<SentTransaction> {
  const transaction = await pipe(
    createTransactionMessage({ version: 0 }),
    (message) => setTransactionMessageFeePayerSigner(payer, message),
    (message) => chain.svm.setTransactionMessageLifetimeUsingLatestBlockhash(message),
    (message) => appendTransactionMessageInstructions(instructions, message),
    (message) => signTransactionMessageWithSigners(message),
  );
  return chain.send(transaction, options);
}

/** With fresh keys, unless `keys` names them (the authority is funded either way). */
export async function createMint(
  chain: LocalSolanaChain,
  decimals: number,
  keys: { authority?: KeyPairSigner; mint?: KeyPairSigner } = {},
): Promise<TestMint> {
  const authority = keys.authority ?? (await generateKeyPairSigner());
  chain.svm.airdrop(authority.address, lamports(10n * 1_000_000_000n));
  const mint = keys.mint ?? (await generateKeyPairSigner());
  const space = getMintSize();
  await sendInstructions(chain, authority, [
    getCreateAccountInstruction({
      payer: authority,
      newAccount: mint,
      lamports: lamports(chain.svm.minimumBalanceForRentExemption(BigInt(space))),
      space,
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeMint2Instruction({ mint: mint.address, decimals, mintAuthority: authority.address }),
  ]);
  return { address: mint.address, decimals, authority };
}

export async function associatedTokenAccount(owner: Address, mint: Address): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return ata;
}

export async function mintTo(chain: LocalSolanaChain, mint: TestMint, owner: Address, amount: bigint): Promise<SentTransaction> {
  const token = await associatedTokenAccount(owner, mint.address);
  return sendInstructions(chain, mint.authority, [
    getCreateAssociatedTokenIdempotentInstruction({ payer: mint.authority, ata: token, owner, mint: mint.address }),
    getMintToCheckedInstruction({ mint: mint.address, token, mintAuthority: mint.authority, amount, decimals: mint.decimals }),
  ]);
}

export interface Payment {
  to: Address;
  amount: bigint;
}

/** One transaction: `from` pays every recipient from its associated account, creating theirs if needed. */
export async function transfer(
  chain: LocalSolanaChain,
  mint: TestMint,
  from: KeyPairSigner,
  payments: Payment[],
  options: { allowFailure?: boolean } = {},
): Promise<SentTransaction> {
  const source = await associatedTokenAccount(from.address, mint.address);
  const instructions: Instruction[] = [];
  for (const payment of payments) {
    const destination = await associatedTokenAccount(payment.to, mint.address);
    instructions.push(
      getCreateAssociatedTokenIdempotentInstruction({ payer: from, ata: destination, owner: payment.to, mint: mint.address }),
      getTransferCheckedInstruction({
        source,
        mint: mint.address,
        destination,
        authority: from,
        amount: payment.amount,
        decimals: mint.decimals,
      }),
    );
  }
  return sendInstructions(chain, from, instructions, options);
}
