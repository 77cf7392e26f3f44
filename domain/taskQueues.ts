// Temporal task queues. Webhook attempts run on a queue of their own beside the session queue, so slow or
// dead receivers can never take the slots payment work needs; its name follows from the session queue, so
// the delivery workflow (which runs on the session queue) finds it without configuration.
export function webhookTaskQueue(sessionTaskQueue: string): string {
  return `${sessionTaskQueue}-webhooks`;
}
