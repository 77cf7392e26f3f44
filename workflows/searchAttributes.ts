// Custom search attributes that let an operator filter sessions in the Temporal Web UI. The dev server
// registers them at start (toolchain/temporalDevServer.ts); a real cluster needs them registered once
// with `temporal operator search-attribute create` (docs/operations.md, "Temporal search attributes").
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const MerchantIdAttribute = defineSearchAttributeKey('MerchantId', SearchAttributeType.KEYWORD);
export const ExtTransactionIdAttribute = defineSearchAttributeKey('ExtTransactionId', SearchAttributeType.KEYWORD);
export const SessionStatusAttribute = defineSearchAttributeKey('SessionStatus', SearchAttributeType.KEYWORD);
export const ChainAttribute = defineSearchAttributeKey('Chain', SearchAttributeType.KEYWORD);
export const TokenAttribute = defineSearchAttributeKey('Token', SearchAttributeType.KEYWORD);
/** Set by settle_<pay_id> (workflows/settlePayment.ts) at each stage: reserving, submitted, awaiting_liquidity, confirmed. */
export const SettlementStageAttribute = defineSearchAttributeKey('SettlementStage', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [
  MerchantIdAttribute,
  ExtTransactionIdAttribute,
  SessionStatusAttribute,
  ChainAttribute,
  TokenAttribute,
  SettlementStageAttribute,
];
