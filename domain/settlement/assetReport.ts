// The operator's report per asset (checkout-admin report assets, docs/admin-cli.md): from the ledger's balances of one
// mode, where each asset is — the Solana treasury, the collectors, deposit addresses not yet swept — what is in flight
// (payouts, refunds and CCTP transfers committed and not landed), the gas spent, and the operator's revenue (fees of
// payouts) and held amounts (rate differences, unclaimed refunds). Balances are as posted (debits positive); the report
// shows what is held or spent as positive and what is owed or earned as positive too. Pure.

export interface AccountBalance {
  account: string;
  asset: string;
  amount: bigint;
}

export interface AssetLine {
  asset: string;
  treasury: bigint;
  collectors: bigint;
  deposits: bigint;
  inFlight: bigint;
  gasSpent: bigint;
  revenue: bigint;
  held: bigint;
}

const COLUMNS: readonly { key: keyof Omit<AssetLine, 'asset'>; of: (account: string) => boolean; sign: 1n | -1n }[] = [
  { key: 'treasury', of: (a) => a === 'treasury:solana', sign: 1n },
  { key: 'collectors', of: (a) => a.startsWith('collector:'), sign: 1n },
  { key: 'deposits', of: (a) => a.startsWith('deposits:'), sign: 1n },
  { key: 'inFlight', of: (a) => a === 'payouts_in_flight' || a === 'refunds_in_flight' || a === 'transfers_in_flight', sign: 1n },
  { key: 'gasSpent', of: (a) => a.startsWith('gas_expense:'), sign: 1n },
  { key: 'revenue', of: (a) => a === 'operator_revenue', sign: -1n },
  { key: 'held', of: (a) => a.startsWith('operator_held:'), sign: -1n },
];

const empty = (asset: string): AssetLine => ({
  asset,
  treasury: 0n,
  collectors: 0n,
  deposits: 0n,
  inFlight: 0n,
  gasSpent: 0n,
  revenue: 0n,
  held: 0n,
});

/**
 * One line per asset any reported account holds, sorted by asset. In flight is what transfers in flight carry: the
 * accounts are credited as a payout or refund is committed and debited as it lands, so their negated balance; CCTP's is
 * debited as it burns, so its balance as is.
 */
export function assetReport(balances: readonly AccountBalance[]): AssetLine[] {
  const lines = new Map<string, AssetLine>();
  for (const b of balances) {
    const column = COLUMNS.find((c) => c.of(b.account));
    if (!column || b.amount === 0n) continue;
    const line = lines.get(b.asset) ?? empty(b.asset);
    const amount = column.key === 'inFlight' && b.account !== 'transfers_in_flight' ? -b.amount : b.amount * column.sign;
    lines.set(b.asset, { ...line, [column.key]: line[column.key] + amount });
  }
  return [...lines.values()].sort((a, b) => a.asset.localeCompare(b.asset));
}
