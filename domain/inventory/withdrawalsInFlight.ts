// Held-inventory withdrawals between the chain and the ledger, for reconciliation (docs/settlement.md#reconciliation):
// a withdrawal is posted once final, so between its transaction landing where reconciliation reads the collector and
// the signer's pass that posts it, the collector holds less than collector:<chain> says. Reconciliation expects the
// ledger less those amounts, so what remains is a difference no withdrawal explains. An EVM collector is read at the
// chain's depth (a withdrawal counts once finalized there), Tron's on the latest state (once a block holds it).
import type { Chain, TokenSymbol } from '../chains/chains';
import { ACCOUNT, tokenAsset } from '../ledger/ledger';
import type { ReconciledAccount } from '../ledger/reconciliation';

type Balance = ReconciledAccount & { amount: bigint };

export interface SubmittedWithdrawal {
  chain: Chain;
  token: TokenSymbol;
  amount: bigint;
  /** Its chain intent's status (chain_intents.status). */
  intentStatus: string;
}

/** Whether reconciliation's read of the collector already shows the withdrawal gone. */
function landedWhereRead(withdrawal: SubmittedWithdrawal): boolean {
  if (withdrawal.chain === 'tron') return withdrawal.intentStatus === 'confirmed' || withdrawal.intentStatus === 'finalized';
  return withdrawal.intentStatus === 'finalized';
}

/** Per collector account and asset, what submitted withdrawals took from it on chain that the ledger has not posted. */
export function withdrawnNotPosted(withdrawals: readonly SubmittedWithdrawal[]): Balance[] {
  const taken = new Map<string, Balance>();
  for (const withdrawal of withdrawals.filter(landedWhereRead)) {
    const account = ACCOUNT.collector(withdrawal.chain);
    const asset = tokenAsset(withdrawal.token, withdrawal.chain);
    const key = `${account} ${asset}`;
    taken.set(key, { account, asset, amount: (taken.get(key)?.amount ?? 0n) + withdrawal.amount });
  }
  return [...taken.values()];
}

/** The ledger's balances as reconciliation expects the chain to show them: each collector less what left it unposted. */
export function expectedAfterWithdrawals(ledger: readonly Balance[], unposted: readonly Balance[]): Balance[] {
  const expected = ledger.map((b) => {
    const taken = unposted.find((u) => u.account === b.account && u.asset === b.asset);
    return taken ? { ...b, amount: b.amount - taken.amount } : b;
  });
  const unknown = unposted.filter((u) => !ledger.some((b) => b.account === u.account && b.asset === u.asset));
  return [...expected, ...unknown.map((u) => ({ ...u, amount: -u.amount }))];
}
