// How often a session may choose its payment method. Apart from the request schemas (domain/wire/payment.ts), as the
// session workflow decides it and zod has no place in the workflow bundle (test/workflows/workflowBundle.test.ts).

/**
 * How often one session may choose its payment method. Each choice prices a quote, writes the payment and
 * a deposit watch; a page that is reloaded a few times needs a handful, so a session token cannot be used to
 * make the service do this without end.
 */
export const MAX_PAYMENT_SELECTIONS = 20;

/** Why another choice is refused after `made` of them, if it is. */
export function selectionLimitRefusal(made: number): string | undefined {
  return made >= MAX_PAYMENT_SELECTIONS
    ? `The payment method was already chosen ${made} times for this session; it can no longer change`
    : undefined;
}
