// Where the service can pay a refund (docs/refunds.md#where-a-refund-can-go): the chains and tokens it holds money in
// and can sign for. A refund is paid from the Solana USDC treasury, whatever it came in as: one unit of a dollar
// stablecoin for one unit. Pure.
import type { Chain, TokenSymbol } from '../chains/chains';

export interface RefundRoute {
  chain: Chain;
  token: TokenSymbol;
}

export const REFUND_ROUTES: readonly RefundRoute[] = [{ chain: 'solana', token: 'USDC' }];

export const isRefundRoute = (route: RefundRoute) => REFUND_ROUTES.some((r) => r.chain === route.chain && r.token === route.token);
