// The ledger's closing position once the inventory path has ended, as an operator would check it: a reconciliation run
// (activities/settlement/ledgerReconciliation.ts, what `checkout-admin ledger reconcile` runs) over the accounts the
// path moved money through, the treasury's and the collector's tokens, each by the ledger and on its chain; then what
// the ledger alone holds of the path (docs/settlement.md#ledger): the value still crossing chains or tokens, and what
// the swap and the bridge cost. The demo's database is its own, so every posting in it is this payment's.
import { createSolanaRpc } from '@solana/kit';
import { reconcileLedger, type TreasuryView } from '../../activities/settlement/ledgerReconciliation';
import { createSql } from '../../db/client';
import { ledgerBalances } from '../../db/repositories/assetReport';
import { CHAIN_FACTS } from '../../domain/chains/chains';
import { ACCOUNT, assetDecimals, type Asset } from '../../domain/ledger/ledger';
import type { DevChain } from '../../toolchain/localChain/devChain';
import type { LocalSolana } from '../../toolchain/localSolana/localSolana';

/** Accounts no chain holds: what is on its way, and what the path cost. */
const LEDGER_ONLY = [ACCOUNT.crossChainClearing, ACCOUNT.transfersInFlight, ACCOUNT.swapCosts('base'), ACCOUNT.bridgeFees];
const ASSET_WIDTH = 13;

export interface LedgerPositionContext {
  databaseUrl: string;
  devChain: DevChain;
  solana: LocalSolana;
  say(line: string): void;
  detail(label: string, value: string): void;
}

export async function showLedgerPosition(context: LedgerPositionContext): Promise<void> {
  const { devChain, solana, say, detail } = context;
  const view: TreasuryView = {
    mode: 'test',
    rpc: createSolanaRpc(solana.rpcUrl),
    treasury: solana.treasury.address,
    usdcMint: solana.usdcMint,
    collectors: [
      {
        chain: devChain.chain,
        client: devChain.local.publicClient,
        address: devChain.depositContracts.collector,
        tokens: [
          { symbol: 'USDC', address: devChain.usdc },
          { symbol: 'USDT', address: devChain.usdt },
        ],
        confirmations: CHAIN_FACTS[devChain.chain].confirmations,
      },
    ],
  };
  const sql = createSql(context.databaseUrl, { max: 2 });
  try {
    const run = await reconcileLedger(view, sql);
    say(`ledger: the closing position, reconciled with the chains (run ${run.id})`);
    for (const b of run.balances) {
      const difference = b.observed === b.ledger ? 'agree' : `differ by ${amountText(b.asset, b.observed - b.ledger)}`;
      detail(
        b.account,
        `${b.asset.padEnd(ASSET_WIDTH)}ledger ${amountText(b.asset, b.ledger)}, on chain ${amountText(b.asset, b.observed)}: ${difference}`,
      );
    }
    for (const b of (await ledgerBalances(sql, 'test')).filter((b) => LEDGER_ONLY.some((account) => account === b.account)))
      detail(b.account, `${b.asset.padEnd(ASSET_WIDTH)}ledger ${amountText(b.asset as Asset, b.amount)}`);
    say(
      run.differences.length === 0
        ? 'reconciliation: no differences'
        : `reconciliation: ${run.differences.length} difference${run.differences.length === 1 ? '' : 's'}`,
    );
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Base units as the asset's decimal amount, without trailing zeros; debits positive, credits negative. */
function amountText(asset: Asset, baseUnits: bigint): string {
  const decimals = assetDecimals(asset);
  const negative = baseUnits < 0n;
  const digits = (negative ? -baseUnits : baseUnits).toString().padStart(decimals + 1, '0');
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${digits.slice(0, -decimals)}${fraction ? `.${fraction}` : ''}`;
}
