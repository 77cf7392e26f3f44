// A merchant's monthly statement (docs/dashboard.md#statements, docs/admin-cli.md): what its ledger accounts did in one
// calendar month (UTC) of one mode, in Solana USDC base units. From merchant_payable:<mer_id> (what the service owes
// the merchant): received (its deposits settled), the operator's fees, what payouts netted for refunds, and what was
// paid out (committed to payout transactions, less any that failed on chain); from merchant_receivable:<mer_id>: the
// refunds charged to the merchant. Held is what the service owed the merchant and had not yet committed to a payout, at
// the month's start and end; whatever else moved the payable (an operator's remedy) is `other`, so the statement always
// adds up: closing = opening + received − fees − netted − paid out + other. Pure.

/** One ledger entry of the merchant's accounts in the month; amounts as posted, debits positive. */
export interface StatementEntry {
  groupId: string;
  account: 'payable' | 'receivable';
  amount: bigint;
}

export interface MerchantStatement {
  month: string;
  openingHeld: bigint;
  received: bigint;
  fees: bigint;
  netted: bigint;
  paidOut: bigint;
  refunds: bigint;
  other: bigint;
  closingHeld: bigint;
}

/** `YYYY-MM` as the UTC instants it starts and ends at; undefined for anything else. */
export function statementMonth(text: string): { start: Date; end: Date } | undefined {
  const match = /^(\d{4})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  if (year < 2000 || month < 1 || month > 12) return undefined;
  return { start: new Date(Date.UTC(year, month - 1, 1)), end: new Date(Date.UTC(year, month, 1)) };
}

const kindOf = (groupId: string) => {
  const words = groupId.split(':');
  return { source: words[0], last: words[words.length - 1] };
};

/** The statement of `month` from the payable's balance before it (`openingPayable`, as posted) and the month's entries. */
export function merchantStatement(month: string, openingPayable: bigint, entries: readonly StatementEntry[]): MerchantStatement {
  let received = 0n;
  let fees = 0n;
  let netted = 0n;
  let paidOut = 0n;
  let refunds = 0n;
  let payable = openingPayable;
  for (const entry of entries) {
    const { source, last } = kindOf(entry.groupId);
    if (entry.account === 'receivable') {
      if (source === 'refund') refunds += entry.amount;
      continue;
    }
    payable += entry.amount;
    if (source === 'deposit' && last === 'settled') received -= entry.amount;
    else if (source === 'payout' && last === 'fee') fees += entry.amount;
    else if (source === 'payout' && last === 'netted') netted += entry.amount;
    else if (source === 'payout' && (last === 'reserve' || last === 'release')) paidOut += entry.amount;
  }
  const openingHeld = -openingPayable;
  const closingHeld = -payable;
  const other = closingHeld - (openingHeld + received - fees - netted - paidOut);
  return { month, openingHeld, received, fees, netted, paidOut, refunds, other, closingHeld };
}

const LINES: readonly [keyof Omit<MerchantStatement, 'month'>, string][] = [
  ['openingHeld', 'held_at_start'],
  ['received', 'received'],
  ['fees', 'fees'],
  ['netted', 'netted_for_refunds'],
  ['paidOut', 'paid_out'],
  ['other', 'other'],
  ['closingHeld', 'held_at_end'],
  ['refunds', 'refunds_charged'],
];

/** A USDC amount in base units as a decimal with 6 places, sign first. */
export function usdcDecimal(baseUnits: bigint): string {
  const sign = baseUnits < 0n ? '-' : '';
  const abs = baseUnits < 0n ? -baseUnits : baseUnits;
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
}

/** The statement's lines, in the order they add up, each with its amount in USDC. */
export const statementLines = (statement: MerchantStatement) =>
  LINES.map(([key, line]) => ({ line, amountUsdc: usdcDecimal(statement[key]) }));

/** The statement as CSV: one line per amount (`merchant_id,mode,month,line,amount_usdc`); no field needs quoting. */
export function statementCsv(merchantId: string, mode: string, statement: MerchantStatement): string {
  const rows = statementLines(statement).map(({ line, amountUsdc }) => [merchantId, mode, statement.month, line, amountUsdc].join(','));
  return ['merchant_id,mode,month,line,amount_usdc', ...rows].join('\r\n') + '\r\n';
}
