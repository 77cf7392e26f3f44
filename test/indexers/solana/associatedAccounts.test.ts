// The Solana sweep empties only a deposit address's associated token account, so the indexer credits only transfers
// into it: USDC sent to another token account the deposit address owns is left in place, never recorded as a deposit
// (docs/settlement.md#solana-deposits-to-other-token-accounts). The same transaction's transfer into the associated
// account is recorded.
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  getInitializeAccount3Instruction,
  getTokenSize,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { generateKeyPairSigner, lamports } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { associatedTokenAccount, sendInstructions, transfer } from '../../../toolchain/localSolana/splToken';
import { createSolanaFixture, solanaDeposits, type SolanaFixture } from './solanaFixture';

describe('Solana indexer: only the associated token account is a deposit', () => {
  let fx: SolanaFixture;

  beforeAll(async () => {
    fx = await createSolanaFixture();
  });

  afterAll(async () => {
    await fx?.stop();
  });

  test('a transfer to another token account of the deposit address is not recorded; one to its associated account is', async () => {
    const { sessionId, address } = await fx.watchedSession();
    const { drain } = fx.createIndexer();
    const { usdc } = fx.mints;
    const other = await generateKeyPairSigner();
    const space = getTokenSize();
    await sendInstructions(fx.chain, fx.payer, [
      getCreateAccountInstruction({
        payer: fx.payer,
        newAccount: other,
        lamports: lamports(fx.chain.svm.minimumBalanceForRentExemption(BigInt(space))),
        space,
        programAddress: TOKEN_PROGRAM_ADDRESS,
      }),
      getInitializeAccount3Instruction({ account: other.address, mint: usdc.address, owner: address }),
    ]);
    fx.chain.produce();
    const sent = await sendInstructions(fx.chain, fx.payer, [
      getTransferCheckedInstruction({
        source: await associatedTokenAccount(fx.payer.address, usdc.address),
        mint: usdc.address,
        destination: other.address,
        authority: fx.payer,
        amount: 9_000_000n,
        decimals: usdc.decimals,
      }),
    ]);
    expect(sent.failed).toBe(false);
    fx.chain.produce();
    await drain();
    expect(await solanaDeposits(fx.db)).toEqual([]);

    const paid = await transfer(fx.chain, usdc, fx.payer, [{ to: address, amount: 4_000_000n }]);
    fx.chain.produce();
    await drain();
    expect(await solanaDeposits(fx.db)).toEqual([
      expect.objectContaining({ session_id: sessionId, tx_hash: paid.signature, amount_base_units: '4000000', to_address: address }),
    ]);
  });
});
