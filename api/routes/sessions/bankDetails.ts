// bank-details (docs/api.md#bank-transfer): the account the customer pays by bank transfer, with the session's reference.
import { activeBankCurrencies, findActiveBankAccount } from '../../../db/repositories/bankAccounts';
import { findSessionById } from '../../../db/repositories/sessions';
import {
  bankTransferReference,
  chooseBankCurrency,
  encodeBankDetails,
  type BankDetailsResponse,
} from '../../../domain/session/bankTransfer';
import { centsToUsd } from '../../../domain/money/money';
import type { SessionStatus } from '../../../domain/wire/status';
import type { AppDeps, SessionAuth } from '../../context';
import { BadRequestError, ConflictError, sessionNotFound } from '../../errors';

/** Bank details are handed out only while no payment is under way or done, so nobody is asked to pay twice. */
const BANK_PAYABLE: readonly SessionStatus[] = ['pending', 'awaiting_payment'];

export async function bankDetails(deps: AppDeps, auth: SessionAuth, requested: string | undefined): Promise<BankDetailsResponse> {
  const session = await findSessionById(deps.sql, auth.sessionId);
  if (!session) throw sessionNotFound();
  if (!BANK_PAYABLE.includes(session.status))
    throw new ConflictError(`Session is ${session.status}; bank transfer is no longer offered for it`);

  const available = await activeBankCurrencies(deps.sql, session.merchantId);
  const choice = chooseBankCurrency(requested, available);
  if ('problem' in choice) {
    const list = choice.available.join(', ');
    switch (choice.problem) {
      case 'none':
        throw new BadRequestError('Bank transfer is not available for this session: there are no bank currencies');
      case 'ambiguous':
        throw new BadRequestError(`currency is required: several bank currencies are available: ${list}`);
      case 'unavailable':
        throw new BadRequestError(`currency ${requested} is not available; available bank currencies: ${list}`);
    }
  }
  // The list and the account come from two reads; an account deactivated between them reads as unavailable.
  const account = await findActiveBankAccount(deps.sql, session.merchantId, choice.currency);
  if (!account) throw new BadRequestError(`currency ${choice.currency} is no longer available; ask for bank-currencies again`);

  return {
    encoded_bank_details: encodeBankDetails({
      account_name: account.accountName,
      bank_name: account.bankName,
      iban: account.iban,
      swift_bic: account.swiftBic,
      account_number: account.accountNumber,
      sort_code: account.sortCode,
      reference: bankTransferReference(session.sessionId),
      currency: account.currency,
      amount_usd: centsToUsd(session.amountUsdCents),
    }),
  };
}
