// The double-entry posting rules of money the service moves (docs/settlement.md#r5-double-entry-reconciled). Every
// posting is a group of entries in integer base units that sums to zero per asset: debits positive, credits negative.
// Accounts:
//   merchant_pending:<chain>   units of credited deposits that pay their session's price: owed to the merchant, in the
//                              deposit's token, until the signer accepts the payment's payout
//   merchant_payable:<mer_id>  what the service owes a merchant in Solana USDC once the signer accepted its payout
//   refund_due:<chain>         what the service owes customers, in the token and on the chain it arrived in: the excess
//                              of a deposit beyond the session's price, and deposits never credited (late, another
//                              token, dust), until a refund or an operator's decision moves it
//   refunds_in_flight          owed to a customer and committed to a refund payment that has not landed yet (Solana USDC)
//   merchant_receivable:<mer_id>  what a merchant owes the service for refunds of money it was already paid, netted from
//                              its later payouts (payout:<pay_id>:netted, docs/refunds.md#funding)
//   operator_held:<chain>      what a deposit brought beyond the USDC the merchant is owed for it at the quoted price
//                              (a rate other than 1): the operator's, negative when the rate is above 1
//   payouts_in_flight          owed to a merchant and committed to a payout that has not landed yet
//   operator_revenue           the operator's fee of merchants' payouts (payout:<pay_id>:fee, docs/settlement.md#fees),
//                              kept in the treasury: credited as the payout is written, from what the merchant is owed
//   treasury:solana            the Solana treasury wallet's holdings, one balance per asset
//   gas_expense:<chain>        transaction fees the service paid on a chain (the treasury on Solana, relayers elsewhere)
//   account_rent:solana        rent the treasury deposited to create accounts (a merchant's USDC account, its own
//                              durable nonce accounts)
//   deposits:<chain>           tokens held at deposit addresses on a chain, confirmed and not yet swept
//   rent_recovered:solana      rent the treasury got back by closing swept deposit accounts (their payers funded it)
//   treasury_funding:<chain>   what operators moved into (or out of) the service's wallets on a chain: its equity
//   collector:<chain>          tokens swept into the deposit factory's collector on an EVM chain or Tron, awaiting a transfer
//   relayer:<chain>            the relayer's native coin on an EVM chain or Tron (sun), which pays its gas
//   deposit_gas:<chain>        native coin the relayer sent HD deposit addresses on an EVM chain to pay their own
//                              sweeps' gas, until that gas is spent
//   transfers_in_flight        USDC burned on an EVM chain by CCTP and not yet minted to the treasury on Solana
//   bridge_fees                what a bridge kept of a transfer (CCTP's executed fee)
//   swap_costs:<chain>         what swapping a collector's USDT to USDC on a chain cost against 1:1 (the pool's fee and
//                              slippage; negative when a pool paid above par), in Solana USDC, the value the treasury
//                              will not receive for the deposits the merchants were paid
//   cross_chain_clearing       where value changes chain or token: a deposit on one chain paid out of the Solana
//                              treasury leaves it short the deposit's token and long treasury USDC until the
//                              transfer that carries the deposit to the treasury lands
// Every posting belongs to one mode: test and live treasuries are different wallets on different networks.
// Group ids derive from what happened (payout:<pay_id>:reserve), so posting again is a no-op, never a double.
import type { Chain, TokenSymbol } from '../chains/chains';
import { payoutIntentId } from '../chainWrites/solanaChainIntent';
import type { Mode } from '../wire/session';

/** Token assets are in the token's base units as deployed on that chain (bsc's USDC and USDT have 18 decimals). */
export type Asset = `${Lowercase<TokenSymbol>}:${Chain}` | 'sol:solana' | `native:${Chain}`;
export const ASSET = { usdcSolana: 'usdc:solana', solSolana: 'sol:solana' } as const satisfies Record<string, Asset>;
export const tokenAsset = (token: TokenSymbol, chain: Chain): Asset => `${token.toLowerCase() as Lowercase<TokenSymbol>}:${chain}`;
export const nativeAsset = (chain: Chain): Asset => (chain === 'solana' ? ASSET.solSolana : `native:${chain}`);

/** Decimal places of an asset's base unit, for showing amounts. */
export function assetDecimals(asset: Asset): number {
  if (asset === ASSET.solSolana) return 9;
  if (asset.startsWith('native:')) return asset === 'native:tron' ? 6 : 18;
  return asset.endsWith(':bsc') ? 18 : 6;
}

export const ACCOUNT = {
  merchantPayable: (merchantId: string) => `merchant_payable:${merchantId}`,
  refundDue: (chain: Chain) => `refund_due:${chain}`,
  refundsInFlight: 'refunds_in_flight',
  merchantReceivable: (merchantId: string) => `merchant_receivable:${merchantId}`,
  operatorHeld: (chain: Chain) => `operator_held:${chain}`,
  merchantPending: (chain: Chain) => `merchant_pending:${chain}`,
  payoutsInFlight: 'payouts_in_flight',
  operatorRevenue: 'operator_revenue',
  treasury: 'treasury:solana',
  gasExpense: 'gas_expense:solana',
  gasExpenseOn: (chain: Chain) => `gas_expense:${chain}`,
  accountRent: 'account_rent:solana',
  treasuryFunding: 'treasury_funding:solana',
  fundingOn: (chain: Chain) => `treasury_funding:${chain}`,
  deposits: 'deposits:solana',
  depositsOn: (chain: Chain) => `deposits:${chain}`,
  rentRecovered: 'rent_recovered:solana',
  collector: (chain: Chain) => `collector:${chain}`,
  relayer: (chain: Chain) => `relayer:${chain}`,
  depositGasOn: (chain: Chain) => `deposit_gas:${chain}`,
  transfersInFlight: 'transfers_in_flight',
  bridgeFees: 'bridge_fees',
  crossChainClearing: 'cross_chain_clearing',
  swapCosts: (chain: Chain) => `swap_costs:${chain}`,
} as const;

export interface LedgerEntry {
  account: string;
  asset: Asset;
  /** Base units; positive debits, negative credits. */
  amount: bigint;
}

export interface LedgerPosting {
  groupId: string;
  mode: Mode;
  /** What the group is about: the payout's or sweep's chain intent id, or the deposit. */
  reference: string;
  entries: LedgerEntry[];
}

export interface PayoutAmount {
  paymentId: string;
  mode: Mode;
  merchantId: string;
  /** What the payment's deposits owe the merchant: the payout's gross. */
  amount: bigint;
  /** The part of `amount` that repaid the merchant's receivable (payoutNetting.ts); none when absent. */
  netted?: bigint;
  /** The operator's fee deducted from `amount` (merchantFee.ts); none when absent. */
  fee?: bigint;
  /** The payout generation (1 unless an operator paid a failed payout again): each posts under its own intent id. */
  generation?: number;
}

const payoutReference = (payout: Pick<PayoutAmount, 'paymentId' | 'generation'>) => payoutIntentId(payout.paymentId, payout.generation);

function positive(amount: bigint, what: string): bigint {
  if (amount <= 0n) throw new RangeError(`${what} must be positive, got ${amount}`);
  return amount;
}

/** A debit of `amount` on `debit` and the matching credit on `credit`. */
const transfer = (debit: string, credit: string, asset: Asset, amount: bigint): LedgerEntry[] => [
  { account: debit, asset, amount },
  { account: credit, asset, amount: -amount },
];

/** What a payout's transaction moves: its gross less the operator's fee and what repaid the merchant's receivable. */
export function payoutTransfer(payout: Pick<PayoutAmount, 'amount' | 'netted' | 'fee'>): bigint {
  const netted = payout.netted ?? 0n;
  const fee = payout.fee ?? 0n;
  if (netted < 0n || fee < 0n || netted + fee > payout.amount)
    throw new RangeError(`a payout deducts between 0 and its amount ${payout.amount}, got ${netted} netted and a fee of ${fee}`);
  return payout.amount - netted - fee;
}

/** The payout row is written: what its transaction pays the merchant is now committed to it. */
export function payoutReserved(payout: PayoutAmount): LedgerPosting {
  const amount = positive(payoutTransfer(payout), 'a payout transfer');
  return {
    groupId: `${payoutReference(payout)}:reserve`,
    mode: payout.mode,
    reference: payoutReference(payout),
    entries: transfer(ACCOUNT.merchantPayable(payout.merchantId), ACCOUNT.payoutsInFlight, ASSET.usdcSolana, amount),
  };
}

/** The payout transaction is confirmed: the USDC left the treasury. */
export function payoutConfirmed(payout: PayoutAmount): LedgerPosting {
  const amount = positive(payoutTransfer(payout), 'a payout transfer');
  return {
    groupId: `${payoutReference(payout)}:sent`,
    mode: payout.mode,
    reference: payoutReference(payout),
    entries: transfer(ACCOUNT.payoutsInFlight, ACCOUNT.treasury, ASSET.usdcSolana, amount),
  };
}

/** The payout transaction landed and failed: nothing left the treasury, the merchant is owed its transfer again. */
export function payoutReleased(payout: PayoutAmount): LedgerPosting {
  const amount = positive(payoutTransfer(payout), 'a payout transfer');
  return {
    groupId: `${payoutReference(payout)}:release`,
    mode: payout.mode,
    reference: payoutReference(payout),
    entries: transfer(ACCOUNT.payoutsInFlight, ACCOUNT.merchantPayable(payout.merchantId), ASSET.usdcSolana, amount),
  };
}

/**
 * The SOL a landed payout transaction cost the treasury (its fee payer): the fee, and rent when it created the
 * merchant's account. Undefined when it cost nothing, as a group without entries means nothing.
 */
export function payoutChainCosts(
  payout: Pick<PayoutAmount, 'paymentId' | 'mode' | 'generation'>,
  costs: { feeLamports: bigint; rentLamports: bigint },
): LedgerPosting | undefined {
  const entries = treasurySolCosts(costs);
  if (!entries) return undefined;
  return {
    groupId: `${payoutReference(payout)}:chain-costs`,
    mode: payout.mode,
    reference: payoutReference(payout),
    entries,
  };
}

/**
 * The SOL a landed transaction (`signature`) of the intent that creates the treasury's durable nonce accounts
 * (`intentId`: nonce-pool:<treasury>) cost it: the fee, and their rent, which stays in accounts the treasury controls
 * but leaves its wallet. One group per landed transaction: a replacement that landed too (and failed) paid its fee.
 */
export function nonceAccountsCreated(
  intentId: string,
  signature: string,
  mode: Mode,
  costs: { feeLamports: bigint; rentLamports: bigint },
): LedgerPosting | undefined {
  const entries = treasurySolCosts(costs);
  return entries && { groupId: `${intentId}:chain-costs:${signature}`, mode, reference: intentId, entries };
}

/** The SOL a treasury transaction cost its wallet, as a fee and as rent; undefined when it cost nothing. */
export function treasurySolCosts(costs: { feeLamports: bigint; rentLamports: bigint }): LedgerEntry[] | undefined {
  if (costs.feeLamports < 0n || costs.rentLamports < 0n) throw new RangeError('chain costs cannot be negative');
  const total = costs.feeLamports + costs.rentLamports;
  if (total === 0n) return undefined;
  const entries: LedgerEntry[] = [];
  if (costs.feeLamports > 0n) entries.push({ account: ACCOUNT.gasExpense, asset: ASSET.solSolana, amount: costs.feeLamports });
  if (costs.rentLamports > 0n) entries.push({ account: ACCOUNT.accountRent, asset: ASSET.solSolana, amount: costs.rentLamports });
  entries.push({ account: ACCOUNT.treasury, asset: ASSET.solSolana, amount: -total });
  return entries;
}

/** Per asset, by how much the treasury's holdings changed outside the service: positive in, negative out. */
export type TreasuryChange = Partial<Record<Asset, bigint>>;

function treasuryChangeEntries(change: TreasuryChange): LedgerEntry[] {
  return Object.entries(change)
    .filter(([, amount]) => amount !== 0n)
    .flatMap(([asset, amount]) => transfer(ACCOUNT.treasury, ACCOUNT.treasuryFunding, asset as Asset, amount));
}

/**
 * An operator's transaction that moved funds into or out of the treasury (a top-up, a withdrawal), keyed on its
 * signature so recording it twice changes nothing. Undefined when it did not change the treasury's holdings.
 */
export function treasuryFunded(mode: Mode, signature: string, change: TreasuryChange): LedgerPosting | undefined {
  const entries = treasuryChangeEntries(change);
  if (entries.length === 0) return undefined;
  const reference = `treasury-funding:${signature}`;
  return { groupId: reference, mode, reference, entries };
}

/**
 * What the treasury held on a chain before the service recorded anything there: the chain's holdings less what the
 * ledger already says, once per chain (`chainId`), e.g. a local chain funded at its genesis, new at every start.
 */
export function treasuryOpening(mode: Mode, chainId: string, change: TreasuryChange): LedgerPosting | undefined {
  const entries = treasuryChangeEntries(change);
  if (entries.length === 0) return undefined;
  const reference = `treasury-opening:${mode}:${chainId}`;
  return { groupId: reference, mode, reference, entries };
}

/** A deposit's key and what arrived: the indexer's facts, in the token's base units on its chain. */
export interface DepositFacts {
  chain: Chain;
  token: TokenSymbol;
  /** The transaction and the log's (or transfer's) index in it: the indexer's key of the deposit. */
  txHash: string;
  logIndex: number;
  /** The session's mode: a test deposit is on the test network, held for the test treasury. */
  mode: Mode;
  amount: bigint;
}

export const depositReference = (deposit: Pick<DepositFacts, 'chain' | 'txHash' | 'logIndex'>) =>
  `deposit:${deposit.chain}:${deposit.txHash}:${deposit.logIndex}`;

/** Entries with a zero amount say nothing and the ledger refuses them. */
const nonZero = (entries: LedgerEntry[]): LedgerEntry[] => entries.filter((e) => e.amount !== 0n);

/** A confirmed deposit credited to its session's payment, split by who owns its units (domain/settlement/unitOwnership.ts). */
export interface CreditedDeposit extends DepositFacts {
  /** Base units of it that pay the session's price: owed to the merchant. */
  merchantUnits: bigint;
}

/**
 * A confirmed deposit was credited to its session: the deposit address holds it, the part that pays the price owed to
 * the merchant and pending its payout (merchant_pending:<chain>, in the deposit's token), the rest owed back to the
 * customer. Posted when the workflow credits it, so that an underpaid session before its expiry, or one whose
 * settlement failed, still says whose its units are.
 */
export function depositCredited(deposit: CreditedDeposit): LedgerPosting {
  const amount = positive(deposit.amount, 'a deposit amount');
  if (deposit.merchantUnits < 0n || deposit.merchantUnits > amount)
    throw new RangeError(`a merchant's share must be within the deposit, got ${deposit.merchantUnits} of ${amount}`);
  const asset = tokenAsset(deposit.token, deposit.chain);
  const reference = depositReference(deposit);
  return {
    groupId: reference,
    mode: deposit.mode,
    reference,
    entries: nonZero([
      { account: ACCOUNT.depositsOn(deposit.chain), asset, amount },
      { account: ACCOUNT.merchantPending(deposit.chain), asset, amount: -deposit.merchantUnits },
      { account: ACCOUNT.refundDue(deposit.chain), asset, amount: -(amount - deposit.merchantUnits) },
    ]),
  };
}

/** A credited deposit whose payment's payout the signer accepted: what its credit left pending, and what it now pays. */
export interface SettledDeposit extends Omit<DepositFacts, 'amount'> {
  merchantId: string;
  /** Base units its credit posted to merchant_pending:<chain>. */
  pending: bigint;
  /**
   * Base units of it that pay the price now the payment settles: its credit's share, or less where a bank transfer
   * credited since paid part of the price (the difference is then owed back to the customer).
   */
  merchantUnits: bigint;
  /** USDC base units the merchant is owed for them at the quoted price. */
  payable: bigint;
}

/** The settlement's reference of a deposit: its own group, after the credit's. */
export const depositSettledGroup = (deposit: Pick<DepositFacts, 'chain' | 'txHash' | 'logIndex'>) => `${depositReference(deposit)}:settled`;

/**
 * The signer accepted the payout of a credited deposit's payment: what was pending for the merchant becomes what it is
 * owed in Solana USDC (merchant_payable). A Solana USDC deposit is the treasury's own asset, so the difference between
 * its units and the USDC owed for them (a rate other than 1) is held for the operator; any other deposit (USDC on
 * base, USDT on bsc, …) is lent against through cross_chain_clearing until the transfer that carries it to the
 * treasury lands. Pending units that no longer pay the price are owed back to the customer.
 */
export function depositSettled(deposit: SettledDeposit): LedgerPosting {
  if (deposit.pending < 0n || deposit.merchantUnits < 0n || deposit.payable < 0n)
    throw new RangeError("a settled deposit's amounts cannot be negative");
  if (deposit.payable > 0n && deposit.merchantUnits === 0n)
    throw new RangeError('a deposit that pays no part of the price owes the merchant nothing');
  const asset = tokenAsset(deposit.token, deposit.chain);
  const owed = ACCOUNT.merchantPayable(deposit.merchantId);
  const reference = depositReference(deposit);
  const priced: LedgerEntry[] =
    asset === ASSET.usdcSolana
      ? [
          { account: owed, asset, amount: -deposit.payable },
          { account: ACCOUNT.operatorHeld('solana'), asset, amount: -(deposit.merchantUnits - deposit.payable) },
        ]
      : [
          { account: ACCOUNT.crossChainClearing, asset, amount: -deposit.merchantUnits },
          ...transfer(ACCOUNT.crossChainClearing, owed, ASSET.usdcSolana, deposit.payable),
        ];
  return {
    groupId: depositSettledGroup(deposit),
    mode: deposit.mode,
    reference,
    entries: nonZero([
      { account: ACCOUNT.merchantPending(deposit.chain), asset, amount: deposit.pending },
      ...priced,
      { account: ACCOUNT.refundDue(deposit.chain), asset, amount: -(deposit.pending - deposit.merchantUnits) },
    ]),
  };
}

/** What a landed sweep transaction moved, read from its balance deltas. */
export interface SweepDeltas {
  /** USDC the treasury's account gained (zero for a transaction that failed). */
  usdc: bigint;
  /** The fee the treasury paid as fee payer. */
  feeLamports: bigint;
  /** Rent the closed deposit accounts returned to the treasury. */
  rentLamports: bigint;
}

/**
 * The postings of a landed sweep (`intentId`: sweep:solana:<batch>): the USDC moved from deposit accounts to the
 * treasury, the fee, and the recovered rent, one group each so that none holds an entry of zero.
 */
export function sweepLanded(intentId: string, mode: Mode, deltas: SweepDeltas): LedgerPosting[] {
  if (deltas.usdc < 0n || deltas.feeLamports < 0n || deltas.rentLamports < 0n) throw new RangeError('sweep deltas cannot be negative');
  const group = (suffix: string, entries: LedgerEntry[]): LedgerPosting => ({
    groupId: `${intentId}:${suffix}`,
    mode,
    reference: intentId,
    entries,
  });
  return [
    ...(deltas.usdc > 0n ? [group('usdc', transfer(ACCOUNT.treasury, ACCOUNT.deposits, ASSET.usdcSolana, deltas.usdc))] : []),
    ...(deltas.feeLamports > 0n ? [group('fee', transfer(ACCOUNT.gasExpense, ACCOUNT.treasury, ASSET.solSolana, deltas.feeLamports))] : []),
    ...(deltas.rentLamports > 0n
      ? [group('rent', transfer(ACCOUNT.treasury, ACCOUNT.rentRecovered, ASSET.solSolana, deltas.rentLamports))]
      : []),
  ];
}

/**
 * A confirmed deposit that was never credited (late, another token, dust): the deposit address holds it and all of it
 * is owed back to the customer, in its token on its chain.
 */
export function refundOnlyDepositReceived(deposit: DepositFacts): LedgerPosting {
  return depositCredited({ ...deposit, merchantUnits: 0n });
}

/** Gas an EVM relayer paid for a landed transaction, in the chain's native coin. */
const relayerGas = (chain: Chain, wei: bigint) => transfer(ACCOUNT.gasExpenseOn(chain), ACCOUNT.relayer(chain), nativeAsset(chain), wei);

/**
 * A landed forwarder sweep on an EVM chain or Tron (`intentId`: sweep:<chain>:<batch>): what its Swept events moved
 * from deposit addresses to the collector, per token asset, and the gas the relayer paid (wei, or sun burned on
 * Tron); one group each.
 */
export function evmSweepLanded(
  intentId: string,
  mode: Mode,
  chain: Chain,
  landed: { moved: Partial<Record<Asset, bigint>>; gasWei: bigint },
): LedgerPosting[] {
  if (landed.gasWei < 0n || Object.values(landed.moved).some((amount) => amount < 0n))
    throw new RangeError('sweep amounts cannot be negative');
  const group = (suffix: string, entries: LedgerEntry[]): LedgerPosting => ({
    groupId: `${intentId}:${suffix}`,
    mode,
    reference: intentId,
    entries,
  });
  return [
    ...Object.entries(landed.moved)
      .filter(([, amount]) => amount > 0n)
      .map(([asset, amount]) => group(asset, transfer(ACCOUNT.collector(chain), ACCOUNT.depositsOn(chain), asset as Asset, amount))),
    ...(landed.gasWei > 0n ? [group('gas', relayerGas(chain, landed.gasWei))] : []),
  ];
}

/** Gas a relayer paid for a landed transaction of a transfer (approve, burn), keyed by its chain intent. */
export function relayerGasPaid(intentId: string, mode: Mode, chain: Chain, gasWei: bigint): LedgerPosting | undefined {
  if (gasWei < 0n) throw new RangeError('gas cannot be negative');
  if (gasWei === 0n) return undefined;
  return { groupId: `${intentId}:gas`, mode, reference: intentId, entries: relayerGas(chain, gasWei) };
}

/**
 * A landed top-up of an HD deposit address (`intentId`: topup:<chain>:<sweep>): the relayer's coin it sent is now
 * the address's gas, and the relayer paid the top-up's own gas; one group each.
 */
export function hdGasToppedUp(intentId: string, mode: Mode, chain: Chain, landed: { sentWei: bigint; gasWei: bigint }): LedgerPosting[] {
  if (landed.sentWei < 0n || landed.gasWei < 0n) throw new RangeError('top-up amounts cannot be negative');
  const sent: LedgerPosting[] =
    landed.sentWei > 0n
      ? [
          {
            groupId: `${intentId}:sent`,
            mode,
            reference: intentId,
            entries: transfer(ACCOUNT.depositGasOn(chain), ACCOUNT.relayer(chain), nativeAsset(chain), landed.sentWei),
          },
        ]
      : [];
  const gas = relayerGasPaid(intentId, mode, chain, landed.gasWei);
  return gas ? [...sent, gas] : sent;
}

/** Gas an HD deposit address paid for its own sweep (`intentId`: sweep-hd:<chain>:<sweep>), out of its topped-up coin. */
export function hdSweepGasPaid(intentId: string, mode: Mode, chain: Chain, gasWei: bigint): LedgerPosting | undefined {
  if (gasWei < 0n) throw new RangeError('gas cannot be negative');
  if (gasWei === 0n) return undefined;
  return {
    groupId: `${intentId}:gas`,
    mode,
    reference: intentId,
    entries: transfer(ACCOUNT.gasExpenseOn(chain), ACCOUNT.depositGasOn(chain), nativeAsset(chain), gasWei),
  };
}

/**
 * A swap of the collector's USDT to USDC landed (`swapId`: sw_<id>): the USDT leaves the collector and the USDC
 * enters it, each through the clearing account, which the deposits' settlement left short the USDT and the next
 * transfer pays back in USDC. What the swap got short of 1:1 (`par`: `amountIn` in USDC base units) is the
 * operator's cost: it moves from the clearing account's Solana USDC to `swap_costs:<chain>`, so the clearing
 * account ends at zero once the transfer lands, as it does for USDC deposits.
 */
export function swapLanded(
  swapId: string,
  mode: Mode,
  chain: Chain,
  amounts: { amountIn: bigint; par: bigint; amountOut: bigint },
): LedgerPosting {
  const amountIn = positive(amounts.amountIn, 'a swapped amount');
  const amountOut = positive(amounts.amountOut, 'the proceeds of a swap');
  const cost = amounts.par - amountOut;
  return {
    groupId: `${swapId}:swapped`,
    mode,
    reference: swapId,
    entries: [
      ...transfer(ACCOUNT.crossChainClearing, ACCOUNT.collector(chain), tokenAsset('USDT', chain), amountIn),
      ...transfer(ACCOUNT.collector(chain), ACCOUNT.crossChainClearing, tokenAsset('USDC', chain), amountOut),
      ...(cost === 0n ? [] : transfer(ACCOUNT.swapCosts(chain), ACCOUNT.crossChainClearing, ASSET.usdcSolana, cost)),
    ],
  };
}

/** A CCTP burn landed (`transferId`: transfer_<id>): the collector's USDC is gone from its chain, on its way. */
export function transferBurned(transferId: string, mode: Mode, chain: Chain, burned: bigint): LedgerPosting {
  const amount = positive(burned, 'a burned amount');
  return {
    groupId: `${transferId}:burned`,
    mode,
    reference: transferId,
    entries: transfer(ACCOUNT.transfersInFlight, ACCOUNT.collector(chain), tokenAsset('USDC', chain), amount),
  };
}

/**
 * The transfer's USDC was minted to the treasury on Solana: what was burned leaves flight, what arrived is the
 * treasury's, the bridge's fee is the difference, and the clearing account gets back the source-chain USDC it lent.
 */
export function transferReceived(
  transferId: string,
  mode: Mode,
  chain: Chain,
  amounts: { burned: bigint; received: bigint },
): LedgerPosting {
  const burned = positive(amounts.burned, 'a burned amount');
  const received = positive(amounts.received, 'a received amount');
  if (received > burned) throw new RangeError(`a transfer cannot deliver more than was burned (${received} > ${burned})`);
  const fee = burned - received;
  return {
    groupId: `${transferId}:received`,
    mode,
    reference: transferId,
    entries: [
      { account: ACCOUNT.treasury, asset: ASSET.usdcSolana, amount: received },
      ...(fee > 0n ? [{ account: ACCOUNT.bridgeFees, asset: ASSET.usdcSolana, amount: fee }] : []),
      { account: ACCOUNT.crossChainClearing, asset: ASSET.usdcSolana, amount: -burned },
      ...transfer(ACCOUNT.crossChainClearing, ACCOUNT.transfersInFlight, tokenAsset('USDC', chain), burned),
    ],
  };
}

/**
 * The SOL the service's own landed receive cost the treasury, its fee payer: the fee, and the rent of the used_nonce
 * account MessageTransmitterV2 creates. Undefined when it cost nothing; a receive by anyone else costs it nothing.
 */
export function transferChainCosts(
  transferId: string,
  mode: Mode,
  costs: { feeLamports: bigint; rentLamports: bigint },
): LedgerPosting | undefined {
  const entries = treasurySolCosts(costs);
  return entries && { groupId: `${transferId}:chain-costs`, mode, reference: transferId, entries };
}

/** An operator's top-up of a relayer's gas, keyed on its transaction so recording it twice changes nothing. */
export function relayerFunded(mode: Mode, chain: Chain, txHash: string, wei: bigint): LedgerPosting {
  const amount = positive(wei, 'a top-up');
  const reference = `relayer-funding:${chain}:${txHash}`;
  return {
    groupId: reference,
    mode,
    reference,
    entries: transfer(ACCOUNT.relayer(chain), ACCOUNT.fundingOn(chain), nativeAsset(chain), amount),
  };
}

/** Per asset, what the entries sum to: all zero for a balanced group. */
export function sumByAsset(entries: readonly LedgerEntry[]): Map<Asset, bigint> {
  const sums = new Map<Asset, bigint>();
  for (const entry of entries) sums.set(entry.asset, (sums.get(entry.asset) ?? 0n) + entry.amount);
  return sums;
}

export function isBalanced(posting: LedgerPosting): boolean {
  return posting.entries.length > 0 && [...sumByAsset(posting.entries).values()].every((sum) => sum === 0n);
}
