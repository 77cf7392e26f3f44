// What a transaction credited to whom, read from the token balances the node records before and after it
// (meta.preTokenBalances / postTokenBalances), never from log text or instruction decoding: the balances are
// the ledger's own account states, so transferChecked, plain transfer, a program's CPI or a batch of several
// transfers all show up the same way, as one increase per receiving token account.
import type { BlockTransaction, TokenBalanceEntry } from './solanaRpc';

export interface TokenCredit {
  /** Index of the receiving token account in the transaction's account list: the deposit's log_index. */
  accountIndex: number;
  /** The receiving token account's address. */
  account: string;
  mint: string;
  /** The wallet that owns the receiving token account (a deposit address is such a wallet). */
  owner: string;
  /** Net increase in base units. */
  amount: bigint;
  /** The owner whose balance of the same mint fell the most, else the fee payer (a mint has no sender). */
  from: string;
}

/**
 * Increases of `mints` balances in token accounts whose owner `isWatched`. A failed transaction moves no tokens
 * and is skipped. A token account that changed owner within the transaction counts from zero: its whole balance
 * came under the new owner's control there.
 */
export function tokenCredits(tx: BlockTransaction, mints: ReadonlySet<string>, isWatched: (owner: string) => boolean): TokenCredit[] {
  if (tx.failed) return [];
  const before = new Map<number, TokenBalanceEntry>(tx.preTokenBalances.map((b) => [b.accountIndex, b]));
  const credits: TokenCredit[] = [];
  for (const post of tx.postTokenBalances) {
    if (!mints.has(post.mint) || post.owner === undefined || !isWatched(post.owner)) continue;
    const pre = before.get(post.accountIndex);
    const preAmount = pre && pre.mint === post.mint && pre.owner === post.owner ? BigInt(pre.amount) : 0n;
    const amount = BigInt(post.amount) - preAmount;
    if (amount <= 0n) continue;
    credits.push({
      accountIndex: post.accountIndex,
      account: tx.accounts[post.accountIndex] ?? '',
      mint: post.mint,
      owner: post.owner,
      amount,
      from: largestSender(tx, post.mint) ?? tx.feePayer,
    });
  }
  return credits.sort((a, b) => a.accountIndex - b.accountIndex);
}

function largestSender(tx: BlockTransaction, mint: string): string | undefined {
  const after = new Map<number, TokenBalanceEntry>(tx.postTokenBalances.map((b) => [b.accountIndex, b]));
  let sender: string | undefined;
  let largest = 0n;
  for (const pre of tx.preTokenBalances) {
    if (pre.mint !== mint || pre.owner === undefined) continue;
    const post = after.get(pre.accountIndex);
    // A closed account has no post balance: all of it left.
    const decrease = BigInt(pre.amount) - (post && post.mint === mint ? BigInt(post.amount) : 0n);
    if (decrease > largest) {
      largest = decrease;
      sender = pre.owner;
    }
  }
  return sender;
}
