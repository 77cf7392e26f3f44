// `report statement <mer_…> --month YYYY-MM`: a merchant's monthly statement from the ledger (received, fees, netting,
// paid out, refunds charged, held), as text, JSON or CSV. `report assets`: per asset, where the mode's money is by the
// ledger (treasury, collectors, deposit addresses), what is in flight, the gas spent and the operator's revenue.
import { ledgerBalances } from '../../db/repositories/assetReport';
import { loadMerchantStatement } from '../../db/repositories/merchantStatement';
import { assetDecimals, type Asset } from '../../domain/ledger/ledger';
import { assetReport, type AssetLine } from '../../domain/settlement/assetReport';
import { statementCsv, statementLines, statementMonth } from '../../domain/settlement/merchantStatement';
import { z } from '../../domain/wire/validationMessages';
import { defineCommand, MerchantIdOption, ModeOption, table, type CommandGroup } from './cli';
import { decimalText } from './settlement';

const MonthOption = z.string().transform((text, ctx) => {
  const bounds = statementMonth(text);
  if (!bounds) {
    ctx.addIssue({ code: 'custom', message: 'Must be a month as YYYY-MM, e.g. 2026-11' });
    return z.NEVER;
  }
  return { text, ...bounds };
});

const statement = defineCommand({
  name: 'statement',
  summary: "a merchant's monthly statement from the ledger: received, fees, netting, paid out, refunds, held",
  positional: { name: 'merchant', value: '<mer_…>', description: 'the merchant' },
  options: {
    month: { value: '<YYYY-MM>', description: 'the calendar month, UTC (required)' },
    mode: { value: 'test|live', description: 'whose books (default live)' },
    csv: { description: 'print CSV (merchant_id,mode,month,line,amount_usdc) instead of a table' },
  },
  readOnly: true,
  schema: z.object({ merchant: MerchantIdOption, month: MonthOption, mode: ModeOption.default('live'), csv: z.boolean().optional() }),
  async run(context, input) {
    const s = await loadMerchantStatement(context.sql(), { merchantId: input.merchant, mode: input.mode }, input.month);
    const lines = statementLines(s);
    return {
      json: {
        merchant_id: input.merchant,
        mode: input.mode,
        month: s.month,
        lines: lines.map((l) => ({ line: l.line, amount_usdc: l.amountUsdc })),
      },
      text: input.csv
        ? [statementCsv(input.merchant, input.mode, s).trimEnd().replace(/\r\n/g, '\n')]
        : [
            `${input.merchant} ${input.mode} ${s.month} (USDC)`,
            ...table(
              ['LINE', 'AMOUNT'],
              lines.map((l) => [l.line, l.amountUsdc]),
            ).map((l) => `  ${l}`),
          ],
    };
  },
});

const COLUMNS: readonly [keyof Omit<AssetLine, 'asset'>, string][] = [
  ['treasury', 'TREASURY'],
  ['collectors', 'COLLECTORS'],
  ['deposits', 'DEPOSITS'],
  ['inFlight', 'IN FLIGHT'],
  ['gasSpent', 'GAS SPENT'],
  ['revenue', 'REVENUE'],
  ['held', 'HELD'],
];

/** An amount of an asset this build knows in its decimals; one it does not, in base units. */
const amountText = (asset: string, baseUnits: bigint) =>
  /^(usdc|usdt|native|sol):/.test(asset) ? decimalText(baseUnits, assetDecimals(asset as Asset)) : baseUnits.toString();

const assets = defineCommand({
  name: 'assets',
  summary: 'per asset by the ledger: treasury, collector and deposit balances, in flight, gas spent, revenue',
  options: { mode: { value: 'test|live', description: 'whose books (default live)' } },
  readOnly: true,
  schema: z.object({ mode: ModeOption.default('live') }),
  async run(context, input) {
    const lines = assetReport(await ledgerBalances(context.sql(), input.mode));
    return {
      json: {
        mode: input.mode,
        assets: lines.map((l) => ({
          asset: l.asset,
          ...Object.fromEntries(COLUMNS.map(([key]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), l[key].toString()])),
        })),
      },
      text: [
        `${input.mode}: by the ledger now`,
        ...table(
          ['ASSET', ...COLUMNS.map(([, title]) => title)],
          lines.map((l) => [l.asset, ...COLUMNS.map(([key]) => amountText(l.asset, l[key]))]),
        ).map((l) => `  ${l}`),
      ],
    };
  },
});

export const reportCommands: CommandGroup = { name: 'report', summary: 'statements and reports', commands: [statement, assets] };
