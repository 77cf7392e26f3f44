// The workflow bundle's entry: every workflow type the worker registers.
export { checkoutSession } from './checkoutSession';
export { webhookDelivery } from './webhookDelivery';
