import { describe, expect, test } from 'vitest';
import type { BlockTransaction, TokenBalanceEntry } from '../../../indexers/solana/solanaRpc';
import { tokenCredits } from '../../../indexers/solana/tokenBalanceDeltas';

const USDC = 'USDCmint11111111111111111111111111111111111';
const OTHER = 'OTHERmint1111111111111111111111111111111111';
const WALLET = 'wallet1111111111111111111111111111111111111';
const PAYER = 'payer11111111111111111111111111111111111111';
const ATTACKER = 'attacker111111111111111111111111111111111111';

const balance = (accountIndex: number, owner: string, amount: string, mint = USDC): TokenBalanceEntry => ({
  accountIndex,
  mint,
  owner,
  amount,
});
const tx = (pre: TokenBalanceEntry[], post: TokenBalanceEntry[], failed = false): BlockTransaction => ({
  signature: 'sig',
  feePayer: PAYER,
  accounts: [PAYER, 'account1', 'account2', 'account3', 'account4'],
  failed,
  preTokenBalances: pre,
  postTokenBalances: post,
});
const watched = (owner: string) => owner === WALLET;
const mints = new Set([USDC]);

describe('token credits from pre/post token balances', () => {
  test('an increase of a watched owner’s balance is a credit from the owner whose balance fell', () => {
    const credits = tokenCredits(
      tx([balance(1, WALLET, '5'), balance(2, PAYER, '100')], [balance(1, WALLET, '12'), balance(2, PAYER, '93')]),
      mints,
      watched,
    );
    expect(credits).toEqual([{ accountIndex: 1, account: 'account1', mint: USDC, owner: WALLET, amount: 7n, from: PAYER }]);
  });

  test('a token account created in the transaction counts from zero; a mint has the fee payer as sender', () => {
    expect(tokenCredits(tx([], [balance(3, WALLET, '18446744073709551615')]), mints, watched)).toEqual([
      { accountIndex: 3, account: 'account3', mint: USDC, owner: WALLET, amount: 18_446_744_073_709_551_615n, from: PAYER },
    ]);
  });

  test('decreases, other mints, other owners, missing owners and failed transactions credit nothing', () => {
    expect(tokenCredits(tx([balance(1, WALLET, '9')], [balance(1, WALLET, '4')]), mints, watched)).toEqual([]);
    expect(tokenCredits(tx([], [balance(1, WALLET, '4', OTHER)]), mints, watched)).toEqual([]);
    expect(tokenCredits(tx([], [balance(1, PAYER, '4')]), mints, watched)).toEqual([]);
    expect(tokenCredits(tx([], [{ accountIndex: 1, mint: USDC, owner: undefined, amount: '4' }]), mints, watched)).toEqual([]);
    expect(tokenCredits(tx([], [balance(1, WALLET, '4')], true), mints, watched)).toEqual([]);
  });

  test('an account handed to the watched wallet within the transaction counts with its whole balance', () => {
    const credits = tokenCredits(tx([balance(4, ATTACKER, '50')], [balance(4, WALLET, '50')]), mints, watched);
    expect(credits).toEqual([{ accountIndex: 4, account: 'account4', mint: USDC, owner: WALLET, amount: 50n, from: PAYER }]);
  });
});
