// The payout transaction's shape (docs/settlement.md#payouts): the merchant's USDC account created idempotently with
// the treasury paying, transferChecked at 6 decimals with the treasury as authority, and the pay_ memo a reconciler
// matches on; the treasury is the only signer and the fee payer. The memo runs on every cluster, not on litesvm,
// so its instruction is checked here and the payouts on the local chain leave it out. It is signed against a
// durable nonce of the treasury: the nonce is its lifetime and its first instruction advances it.
import { MEMO_PROGRAM_ADDRESS } from '@solana-program/memo';
import { parseAdvanceNonceAccountInstruction, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, getTransferCheckedInstructionDataDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import {
  address,
  decompileTransactionMessage,
  generateKeyPairSigner,
  getCompiledTransactionMessageDecoder,
  type Instruction,
} from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { signTreasuryTransfer } from '../../../signer/payouts/treasuryTransfer';
import { associatedUsdcAccount } from '../../../domain/addresses/solanaTokenAccount';

const nonce = { account: address('Nonce11111111111111111111111111111111111111'), value: '4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM' };

async function payout(memo: boolean) {
  const [treasury, merchant, mint] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner(), generateKeyPairSigner()]);
  const transfer = {
    paymentId: 'pay_01J0000000000000000000000A',
    treasury,
    mint: mint.address,
    merchantWallet: merchant.address,
    amount: 42_000_001n,
  };
  const tx = await signTreasuryTransfer(
    { treasury, usdcMint: mint.address, memo },
    { wallet: merchant.address, amount: transfer.amount, reference: transfer.paymentId },
    nonce,
  );
  const message = decompileTransactionMessage(getCompiledTransactionMessageDecoder().decode(tx.messageBytes));
  const [advance, ...instructions] = message.instructions as readonly Instruction[];
  return { transfer, tx, feePayer: message.feePayer.address, advance, instructions, lifetime: message.lifetimeConstraint };
}

describe('payout transaction', () => {
  it('creates the merchant account, transfers checked at 6 decimals, and carries the pay_ memo', async () => {
    const { transfer, tx, feePayer, instructions } = await payout(true);
    expect(feePayer).toBe(transfer.treasury.address);
    expect(Object.keys(tx.signatures)).toEqual([transfer.treasury.address]);
    expect(instructions.map((i) => i.programAddress)).toEqual([
      ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
      TOKEN_PROGRAM_ADDRESS,
      MEMO_PROGRAM_ADDRESS,
    ]);
    const [create, send, memo] = instructions;
    const merchantAccount = await associatedUsdcAccount(transfer.merchantWallet, transfer.mint);
    expect(create?.accounts?.map((a) => a.address).slice(0, 4)).toEqual([
      transfer.treasury.address,
      merchantAccount,
      transfer.merchantWallet,
      transfer.mint,
    ]);
    expect(send?.accounts?.map((a) => a.address)).toEqual([
      await associatedUsdcAccount(transfer.treasury.address, transfer.mint),
      transfer.mint,
      merchantAccount,
      transfer.treasury.address,
    ]);
    expect(getTransferCheckedInstructionDataDecoder().decode(send?.data ?? new Uint8Array())).toMatchObject({
      amount: 42_000_001n,
      decimals: 6,
    });
    expect(Buffer.from(memo?.data ?? []).toString('utf8')).toBe(transfer.paymentId);
  });

  it("names the treasury's nonce as its lifetime and advances it first, the treasury its authority", async () => {
    const { transfer, tx, advance, lifetime } = await payout(false);
    expect(lifetime).toEqual({ nonce: nonce.value });
    expect(advance?.programAddress).toBe(SYSTEM_PROGRAM_ADDRESS);
    const parsed = parseAdvanceNonceAccountInstruction(advance as Parameters<typeof parseAdvanceNonceAccountInstruction>[0]);
    expect(parsed.accounts.nonceAccount.address).toBe(nonce.account);
    expect(parsed.accounts.nonceAuthority.address).toBe(transfer.treasury.address);
    expect(Object.keys(tx.signatures)).toEqual([transfer.treasury.address]);
  });

  it('leaves the memo out only when told to', async () => {
    const { instructions } = await payout(false);
    expect(instructions.map((i) => i.programAddress)).toEqual([ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS]);
  });
});
