// The ApplicationFailure types the session workflow and its activities refuse with. The API maps them to
// HTTP answers and the workflow's retry policies name them, so they are spelled in exactly one place.
export const WorkflowFailure = {
  /** select-payment refused: the pair is not offered, a deposit was already seen, or the session is closed. */
  SelectionRefused: 'SelectionRefused',
  /** cancel refused: a deposit exists or the session is closed. */
  CancelRefused: 'CancelRefused',
  /**
   * creditDeposit refused: the deposit cannot be credited to the session (domain/refunds/depositCredit.ts), or its
   * refund was claimed meanwhile; nothing was credited.
   */
  DepositCreditRefused: 'DepositCreditRefused',
  /** simulate refused: live sessions cannot be simulated. */
  SimulateRefused: 'SimulateRefused',
  /** No settlement route for the payment: it fails loudly, funds stay where they are. */
  SettlementUnavailable: 'SettlementUnavailable',
  /** A payout cannot be made as asked: no valid settlement wallet, or the payment's payout differs from the request. */
  PayoutRefused: 'PayoutRefused',
  /**
   * Retryable: the node the signer re-reads a deposit from has not seen it, or not as deep as required, yet. The
   * payout activity's retry policy waits on it; past the re-read's bound it becomes PayoutRefused.
   */
  DepositRereadPending: 'DepositRereadPending',
  /**
   * Retryable: the live payout would take its merchant's live payouts of the trailing 24 hours past the daily limit,
   * and no operator approved its payment yet (docs/settlement.md#daily-limit): retried without limit until one does.
   */
  PayoutAwaitingApproval: 'PayoutAwaitingApproval',
  /** The payout transaction landed and failed on chain: nothing was paid; an operator decides what follows. */
  PayoutFailed: 'PayoutFailed',
  /** A payout written for a treasury whose key the signer does not hold must be signed again: retried until it does. */
  PayoutKeyMissing: 'PayoutKeyMissing',
  /**
   * Retryable: every durable nonce account of the payout's treasury is held by a payout whose nonce has not moved on
   * in the finalized chain yet, or the accounts are still being created (docs/settlement.md#payouts).
   */
  PayoutNonceWait: 'PayoutNonceWait',
  /** A CCTP transfer pass refused: the attested message is not the burn's, or the attestation service refused. */
  TransferRefused: 'TransferRefused',
  /** A signer was handed work of the other mode (domain/security/signerModeRouting.ts): refused, nothing signed. */
  SignerModeRefused: 'SignerModeRefused',
  /**
   * select-payment failed: the Solana address answered on the signer's task queue is not the one the signer recorded
   * (docs/settlement.md#deposit-addresses-only-the-services-own); nothing is shown, a later choice asks again.
   */
  SolanaAddressUnrecorded: 'SolanaAddressUnrecorded',
  /**
   * An EVM or Tron chain intent not signed: its stored call is not what its sweep or transfer row implies
   * (docs/settlement.md#a-stored-call-is-signed-only-as-its-row-implies); it waits for an operator.
   */
  ChainIntentRefused: 'ChainIntentRefused',
  /** recordSession: the merchant's transaction_id belongs to another session, so this one was never created. */
  SessionSuperseded: 'SessionSuperseded',
} as const;

export type WorkflowFailureType = (typeof WorkflowFailure)[keyof typeof WorkflowFailure];
