// Token balances as a Solana node records them in a transaction's meta: every account of the transaction that is
// an initialized SPL token account, read before and after execution, in the jsonParsed/json wire shape
// (accountIndex, mint, owner, programId, uiTokenAmount {amount, decimals, uiAmount, uiAmountString}).
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { Address } from '@solana/kit';
import type { LiteSVM } from 'litesvm';

export interface WireTokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: { amount: string; decimals: number; uiAmount: number; uiAmountString: string };
}

/** A token account's data is exactly 165 bytes; mints (82) and multisigs (355) are not balances. */
const TOKEN_ACCOUNT_SIZE = 165;

/** The node's own formatting: the decimal amount with trailing zeros (and a bare point) removed. */
export function uiAmountString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const digits = amount.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

export function tokenBalances(svm: LiteSVM, accountKeys: readonly Address[]): WireTokenBalance[] {
  const balances: WireTokenBalance[] = [];
  for (const [accountIndex, address] of accountKeys.entries()) {
    const account = svm.getAccount(address);
    if (!account.exists || account.programAddress !== TOKEN_PROGRAM_ADDRESS || account.data.length !== TOKEN_ACCOUNT_SIZE) continue;
    const token = getTokenDecoder().decode(account.data);
    const mintAccount = svm.getAccount(token.mint);
    if (!mintAccount.exists) continue;
    const { decimals } = getMintDecoder().decode(mintAccount.data);
    const text = uiAmountString(token.amount, decimals);
    balances.push({
      accountIndex,
      mint: token.mint,
      owner: token.owner,
      programId: TOKEN_PROGRAM_ADDRESS,
      uiTokenAmount: { amount: token.amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text },
    });
  }
  return balances;
}
