// `bank add | deactivate | list | mark-received`: the accounts customers pay by bank transfer, and the
// operator's confirmation that a transfer arrived, which signals the session's workflow.
import { bankAccountJson } from '../../api/bankAccountJson';
import { insertBankAccount, setBankAccountActive, type BankAccount } from '../../db/repositories/bankAccounts';
import { findBankAccount, listBankAccounts } from '../../db/repositories/bankAccountListing';
import { findMerchant } from '../../db/repositories/merchants';
import { insertBankReceipt } from '../../db/repositories/bankReceipts';
import type { Sql } from '../../db/client';
import { findSessionById } from '../../db/repositories/sessions';
import { AccountNumber, Iban, SortCode, SwiftBic } from '../../domain/session/bankAccountFields';
import { bankTransferReference, CurrencyCode, referenceNamesSession } from '../../domain/session/bankTransfer';
import { centsToUsd, parseUsdCents, USD_TEXT } from '../../domain/money/money';
import { z } from '../../domain/wire/validationMessages';
import type { BankTransferReceipt } from '../../domain/session/sessionState';
import { CLOSED_STATUSES } from '../../domain/wire/status';
import { bankTransferReceivedSignal } from '../../workflows/messages';
import { CliError, defineCommand, MerchantIdOption, SessionIdOption, table, when, type CommandGroup } from './cli';

const UNIQUE_VIOLATION = '23505';
const BankAccountIdOption = z.string().regex(/^ba_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be a bank account id (ba_…)');
const Text = z.string().trim().min(1).max(200);

const add = defineCommand({
  name: 'add',
  summary: 'add an active bank account; customers of the merchant can then pay in its currency',
  options: {
    merchant: { value: '<mer_…>', description: 'merchant (required)' },
    currency: { value: '<ISO 4217>', description: 'e.g. EUR; one active account per currency (required)' },
    'account-name': { value: '<text>', description: 'account holder (required)' },
    'bank-name': { value: '<text>', description: '(required)' },
    iban: { value: '<iban>', description: 'checked with its check digits; give an IBAN or an account number' },
    'swift-bic': { value: '<bic>', description: '8 or 11 characters' },
    'account-number': { value: '<number>', description: 'domestic account number' },
    'sort-code': { value: '<nn-nn-nn>', description: 'UK sort code' },
  },
  schema: z
    .object({
      merchant: MerchantIdOption,
      currency: z
        .string()
        .transform((v) => v.toUpperCase())
        .pipe(CurrencyCode),
      'account-name': Text,
      'bank-name': Text,
      iban: Iban.optional(),
      'swift-bic': SwiftBic.optional(),
      'account-number': AccountNumber.optional(),
      'sort-code': SortCode.optional(),
    })
    .refine((o) => o.iban !== undefined || o['account-number'] !== undefined, {
      message: 'give --iban or --account-number: a customer needs one to pay',
    }),
  async run(context, input) {
    if (!(await findMerchant(context.sql(), input.merchant))) throw new CliError(`merchant ${input.merchant} does not exist`);
    let account: BankAccount;
    try {
      account = await insertBankAccount(context.sql(), {
        merchantId: input.merchant,
        currency: input.currency,
        accountName: input['account-name'],
        bankName: input['bank-name'],
        iban: input.iban ?? null,
        swiftBic: input['swift-bic'] ?? null,
        accountNumber: input['account-number'] ?? null,
        sortCode: input['sort-code'] ?? null,
      });
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      const current = (await listBankAccounts(context.sql(), input.merchant)).find((a) => a.active && a.currency === input.currency);
      throw new CliError(
        `${input.merchant} already has an active ${input.currency} account${current ? ` (${current.id})` : ''}; deactivate it first`,
      );
    }
    return {
      json: bankAccountJson(account),
      text: [`bank account ${account.id} (${account.currency}, ${account.bankName}) added for ${account.merchantId}`],
      targets: [account.id],
    };
  },
});

const deactivate = defineCommand({
  name: 'deactivate',
  summary: 'stop offering a bank account: bank-currencies and bank-details no longer return it',
  options: { id: { value: '<ba_…>', description: 'bank account id (required)' } },
  schema: z.object({ id: BankAccountIdOption }),
  async run(context, input) {
    const before = await findBankAccount(context.sql(), input.id);
    if (!before) throw new CliError(`bank account ${input.id} does not exist`);
    if (before.active) await setBankAccountActive(context.sql(), input.id, false);
    const account = (await findBankAccount(context.sql(), input.id)) ?? before;
    return {
      json: { ...bankAccountJson(account), already_inactive: !before.active },
      text: [
        before.active ? `bank account ${account.id} (${account.currency}) deactivated` : `bank account ${account.id} was already inactive`,
      ],
      targets: [account.id],
    };
  },
});

const list = defineCommand({
  name: 'list',
  summary: "list a merchant's bank accounts, active first",
  options: { merchant: { value: '<mer_…>', description: 'merchant (required)' } },
  readOnly: true,
  schema: z.object({ merchant: MerchantIdOption }),
  async run(context, input) {
    if (!(await findMerchant(context.sql(), input.merchant))) throw new CliError(`merchant ${input.merchant} does not exist`);
    const accounts = await listBankAccounts(context.sql(), input.merchant);
    return {
      json: { merchant_id: input.merchant, bank_accounts: accounts.map(bankAccountJson) },
      text:
        accounts.length === 0
          ? [`${input.merchant} has no bank accounts`]
          : table(
              ['ID', 'CURRENCY', 'ACTIVE', 'ACCOUNT NAME', 'BANK', 'IBAN / ACCOUNT', 'BIC / SORT CODE', 'CREATED'],
              accounts.map((a) => [
                a.id,
                a.currency,
                a.active ? 'yes' : 'no',
                a.accountName,
                a.bankName,
                a.iban ?? a.accountNumber ?? '-',
                a.swiftBic ?? a.sortCode ?? '-',
                when(a.createdAt),
              ]),
            ),
    };
  },
});

/** Text straight to integer cents: a USD amount never passes through a JS number. */
const AmountUsdCents = z
  .string()
  .regex(USD_TEXT, 'Must be a USD amount with at most 2 decimals, e.g. 25.50')
  .transform(parseUsdCents)
  .refine((cents) => cents > 0n, 'Must be greater than 0');

const markReceived = defineCommand({
  name: 'mark-received',
  summary: 'confirm that a bank transfer for a session arrived; the session workflow judges the amount',
  options: {
    session: { value: '<cs_…>', description: 'session the transfer pays (required)' },
    'amount-usd': { value: '<amount>', description: 'amount received, in USD, e.g. 25.50 (required)' },
    reference: {
      value: '<text>',
      description: "the reference on the bank statement; must contain the session's CS-… reference (required)",
    },
    force: {
      description: "credit a transfer whose reference does not contain the session's, once you have checked it is for this session",
    },
    by: { value: '<name>', description: 'who confirms it, kept with the receipt (default operator:<operator name>)' },
  },
  schema: z.object({
    session: SessionIdOption,
    'amount-usd': AmountUsdCents,
    reference: Text,
    force: z.boolean().optional(),
    by: Text.optional(),
  }),
  async run(context, input) {
    const session = await findSessionById(context.sql(), input.session);
    if (!session) throw new CliError(`session ${input.session} does not exist`);
    const receipt: BankTransferReceipt = {
      amountUsdCents: input['amount-usd'].toString(),
      reference: input.reference,
      receivedBy: input.by ?? `operator:${context.operator.name}`,
    };
    const expected = bankTransferReference(session.sessionId);
    const warnings: string[] = [];
    const mismatched = !referenceNamesSession(input.reference, session.sessionId);
    if (mismatched) {
      // A transfer credited to the wrong session pays for someone else's order; only a checked override may.
      if (!input.force) {
        throw new CliError(
          `reference ${input.reference} does not contain the session's reference ${expected}; check the transfer is for ${session.sessionId}, then give --force to credit it anyway`,
        );
      }
      warnings.push(`reference ${input.reference} does not contain the session's reference ${expected}; credited because of --force`);
    }
    const amount = centsToUsd(BigInt(receipt.amountUsdCents));
    try {
      await (await context.temporal()).workflow.getHandle(session.sessionId).signal(bankTransferReceivedSignal, receipt);
    } catch (error) {
      const { WorkflowNotFoundError } = await import('@temporalio/client');
      if (!(error instanceof WorkflowNotFoundError)) throw error;
      // An underpaid session closes at its expiry in its status; one not yet started has no workflow either, and is open.
      const closed = CLOSED_STATUSES.has(session.status) || (session.status === 'underpaid' && session.expiresAt.getTime() <= Date.now());
      if (!closed) throw new CliError(`session ${session.sessionId} (${session.status}) has no running workflow yet; try again shortly`);
      return refundDue(context.sql(), session, receipt, mismatched, warnings);
    }
    return {
      json: {
        session_id: session.sessionId,
        amount_usd: amount,
        amount_usd_cents: receipt.amountUsdCents,
        reference: receipt.reference,
        received_by: receipt.receivedBy,
        forced: mismatched,
        session_amount_usd: centsToUsd(session.amountUsdCents),
      },
      text: [
        `bank transfer of ${amount.toFixed(2)} USD (reference ${receipt.reference}) signalled to ${session.sessionId}`,
        `session amount ${centsToUsd(session.amountUsdCents).toFixed(2)} USD, status before the signal: ${session.status}`,
      ],
      warnings,
      targets: [session.sessionId],
    };
  },
});

/**
 * A transfer for a session whose workflow has ended: the session is closed and takes no more payments, but the money
 * is in the merchant's account and owed back to the customer, so it is recorded as refund due
 * (docs/lifecycle.md#bank-transfers).
 */
async function refundDue(
  sql: Sql,
  session: { sessionId: string; status: string },
  receipt: BankTransferReceipt,
  forced: boolean,
  warnings: string[],
) {
  const recorded = await insertBankReceipt(sql, { sessionId: session.sessionId, ...receipt, credited: false });
  const amount = centsToUsd(BigInt(receipt.amountUsdCents));
  if (!recorded) warnings.push(`reference ${receipt.reference} was already recorded for ${session.sessionId}; kept as first recorded`);
  else
    warnings.push(
      `session ${session.sessionId} is closed (${session.status}): the transfer is not credited and is owed back to the customer`,
    );
  return {
    json: {
      session_id: session.sessionId,
      amount_usd: amount,
      amount_usd_cents: receipt.amountUsdCents,
      reference: receipt.reference,
      received_by: receipt.receivedBy,
      forced,
      refund_due: true,
      already_recorded: !recorded,
    },
    text: [`bank transfer of ${amount.toFixed(2)} USD (reference ${receipt.reference}) recorded as refund due for ${session.sessionId}`],
    warnings,
    targets: [session.sessionId],
  };
}

export const bankCommands: CommandGroup = {
  name: 'bank',
  summary: 'bank accounts and bank transfers',
  commands: [add, deactivate, list, markReceived],
};
