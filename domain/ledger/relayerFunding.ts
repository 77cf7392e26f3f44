// Whether a landed transaction is an operator's top-up of a relayer, and by how much, from what the chain shows of it
// (docs/settlement.md#reconciliation): the amount is the chain's, never one typed by hand. Only the coin the
// transaction itself sends the relayer counts (an EVM transaction's value, a Tron TransferContract's amount): coin a
// contract forwards inside a call leaves no trace there. A transaction the relayer sent is refused: its withdrawals
// cost it gas too, and its own transactions are the service's, which posts them itself.
import { CHAIN_FACTS, type Chain } from '../chains/chains';
import type { Mode } from '../wire/session';
import { relayerFunded, type LedgerPosting } from './ledger';

/** How final a transaction is: an EVM one's blocks up to the head, its own included; a Tron one solidified or not. */
export type Finality = { depth: bigint; required: number } | { solidified: boolean };

/** What a chain shows of one landed transaction. */
export interface LandedPayment {
  chain: Chain;
  txHash: string;
  /** Its effect stood: an EVM receipt's status success, a Tron transaction's contractRet SUCCESS. */
  succeeded: boolean;
  finality: Finality;
  /** Tron's contract type (TransferContract, TriggerSmartContract, …); EVM transactions have none. */
  contractType?: string;
  from: string;
  /** None for an EVM contract creation. */
  to?: string;
  /** The native coin it sends `to`, in base units (wei, sun). */
  value: bigint;
}

export type RelayerFunding = { posting: LedgerPosting } | { refused: string };

/** EVM addresses are compared without their checksum's case; Tron's base58 as written. */
const sameAddress = (chain: Chain, a: string, b: string) =>
  CHAIN_FACTS[chain].family === 'evm' ? a.toLowerCase() === b.toLowerCase() : a === b;

function notFinal(payment: LandedPayment): string | undefined {
  const { finality } = payment;
  if ('solidified' in finality)
    return finality.solidified ? undefined : `is not solidified on ${payment.chain} yet: record it once it is (about a minute)`;
  return finality.depth >= BigInt(finality.required)
    ? undefined
    : `has ${finality.depth} of the ${finality.required} confirmations ${payment.chain} needs: record it once it has them`;
}

/** The posting of `payment` as a top-up of `relayer` (the address the signer recorded), or why it is not one. */
export function relayerFundingOf(mode: Mode, relayer: string, payment: LandedPayment): RelayerFunding {
  const tx = `transaction ${payment.txHash}`;
  const refused = (why: string): RelayerFunding => ({ refused: `${tx} ${why}` });
  if (!payment.succeeded) return refused(`failed on ${payment.chain}: it moved no coin`);
  const pending = notFinal(payment);
  if (pending) return refused(pending);
  if (payment.contractType !== undefined && payment.contractType !== 'TransferContract')
    return refused(`is a ${payment.contractType}, not a TRX transfer (TransferContract)`);
  if (sameAddress(payment.chain, payment.from, relayer))
    return refused(`was sent by the ${mode} relayer on ${payment.chain} (${relayer}): only top-ups from outside the service are recorded`);
  if (payment.to === undefined || !sameAddress(payment.chain, payment.to, relayer))
    return refused(
      `does not pay the ${mode} relayer on ${payment.chain} (${relayer}): it pays ${payment.to ?? 'no one (a contract creation)'}`,
    );
  if (payment.value <= 0n) return refused(`pays the ${mode} relayer on ${payment.chain} nothing`);
  return { posting: relayerFunded(mode, payment.chain, payment.txHash.toLowerCase(), payment.value) };
}
