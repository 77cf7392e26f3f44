// The yardstick for select-payment: a workflow whose Update answers at once, with instructions of the same shape,
// and does nothing else: no activity, no Postgres, no derivation, no search attributes. What an Update costs on
// this machine's Temporal dev server and worker, to read select-payment's latency against.
import { condition, defineQuery, defineUpdate, setHandler } from '@temporalio/workflow';
import type { Chain, TokenSymbol } from '../domain/chains/chains';
import type { PaymentInstructions } from '../domain/wire/payment';

export const bareChooseUpdate = defineUpdate<PaymentInstructions, [{ token: TokenSymbol; chain: Chain }]>('bareChoose');

/** Answered once the workflow's first task has run, as the session's getState is. */
export const bareReadyQuery = defineQuery<boolean>('bareReady');

export async function bareUpdateWorkflow(): Promise<void> {
  setHandler(bareReadyQuery, () => true);
  setHandler(bareChooseUpdate, ({ token, chain }) => ({
    payment_id: 'pay_01BENCHBAREUPDATE000000000',
    quote_id: 'qt_01BENCHBAREUPDATE0000000000',
    token,
    chain,
    deposit_address: '0x0000000000000000000000000000000000000001',
    token_address: '0x0000000000000000000000000000000000000002',
    amount: '10.000000',
    amount_base_units: '10000000',
    decimals: 6,
    payment_uri: 'ethereum:0x0000000000000000000000000000000000000002/transfer',
    confirmations_required: 1,
    expires_at: '2030-01-01T00:00:00.000Z',
  }));
  // Open, as a session is while its customer chooses; it ends with the bench's throw-away Temporal server.
  await condition(() => false);
}
