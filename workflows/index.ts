// The workflow bundle's entry: every workflow type the worker registers.
export { cctpTransfer, transferUsdc } from './cctpTransfer';
export { swapUsdt } from './usdtSwap';
export { checkoutSession } from './checkoutSession';
export { inventoryWithdrawal } from './inventoryWithdrawal';
export { refundWorkflow } from './refund';
export { settlePayment } from './settlePayment';
export { sweepEvmDeposits } from './sweepEvmDeposits';
export { sweepSolanaUsdc } from './sweepSolanaUsdc';
export { webhookDelivery } from './webhookDelivery';
