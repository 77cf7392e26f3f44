import { ulid } from 'ulid';

/** Resource id prefixes (docs/api.md#identifiers-and-formats). Transactions use a bare ULID. */
export const ID_PREFIX = {
  session: 'cs_',
  payment: 'pay_',
  quote: 'qt_',
  merchant: 'mer_',
  webhookDelivery: 'wh_',
  refund: 'ref_',
} as const;

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

/** `source` makes the ULID: the API passes one drawing on pooled randomness (api/pooledUlid.ts). */
export const newSessionId = (source: () => string = ulid) => `${ID_PREFIX.session}${source()}`;
export const newQuoteId = () => `${ID_PREFIX.quote}${ulid()}`;
export const newMerchantId = () => `${ID_PREFIX.merchant}${ulid()}`;
export const newWebhookDeliveryId = () => `${ID_PREFIX.webhookDelivery}${ulid()}`;
export const newRefundId = (source: () => string = ulid) => `${ID_PREFIX.refund}${source()}`;
export const newTransactionId = (source: () => string = ulid) => source();
/** A session has one payment; deriving its id keeps every retry and replay pointing at the same record. */
export const paymentIdForSession = (sessionId: string) => `${ID_PREFIX.payment}${sessionId.slice(ID_PREFIX.session.length)}`;
export const newApiKeyId = () => `key_${ulid()}`;
export const newBankAccountId = () => `ba_${ulid()}`;

/** A session id without anchors, for patterns that embed it (the router's path patterns). */
export const SESSION_ID_SOURCE = `${ID_PREFIX.session}${ULID}`;
export const SESSION_ID_PATTERN = new RegExp(`^${SESSION_ID_SOURCE}$`);
export const MERCHANT_ID_PATTERN = new RegExp(`^${ID_PREFIX.merchant}${ULID}$`);
export const REFUND_ID_PATTERN = new RegExp(`^${ID_PREFIX.refund}${ULID}$`);
