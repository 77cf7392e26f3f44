// The message the wallet that paid signs to prove the claim is its owner's (docs/refunds.md#proof-of-ownership). It
// names the refund and the destination, so a signature can neither be replayed for another refund nor moved to another
// address. The claim page shows exactly this text and the API verifies against it; plain ASCII lines, as a wallet's
// "sign message" box displays them. Pure.
import type { Chain, TokenSymbol } from '../chains/chains';

export function refundClaimMessage(refundId: string, destination: { chain: Chain; token: TokenSymbol; address: string }): string {
  return [
    'Refund claim',
    `Refund: ${refundId}`,
    `Send it as ${destination.token} on ${destination.chain} to: ${destination.address}`,
    'I control the wallet that made the payment.',
  ].join('\n');
}
