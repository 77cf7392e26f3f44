// The bank part of a settlement (docs/settlement.md#routes): transfers the merchant's own account already holds. Nothing
// moves and nothing is posted through the treasury; the settlements row (provider `bank`) records what the merchant
// received, and under which references, so every unit of the session has an owner on record.
import type { Sql } from '../../db/client';
import { insertBankSettlement } from '../../db/repositories/settlements';
import { BANK_PROVIDER } from '../../domain/settlement/settlementRoute';
import type { SettlementState } from '../../domain/session/sessionState';
import { settlementOf } from './treasurySettlement';

export interface BankSettlement {
  paymentId: string;
  sessionId: string;
  usdCents: string;
  references: string[];
}

export function createBankSettlement(deps: { sql: Sql; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return async function settleBankPart(request: BankSettlement): Promise<SettlementState> {
    const row = await insertBankSettlement(deps.sql, {
      paymentId: request.paymentId,
      sessionId: request.sessionId,
      provider: BANK_PROVIDER,
      reference: request.references.join(', '),
      amountUsdcBaseUnits: (BigInt(request.usdCents) * 10_000n).toString(),
      settledAt: now(),
    });
    return settlementOf(row)!;
  };
}
