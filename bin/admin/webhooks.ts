// `webhooks list | redeliver`: what was sent for a session, every attempt's outcome, and a manual resend.
import { ulid } from 'ulid';
import { findSessionById } from '../../db/repositories/sessions';
import { findWebhookDeliverySession, listWebhookDeliveries } from '../../db/repositories/webhookHistory';
import { z } from '../../domain/validationMessages';
import { WEBHOOK_DELIVERY_WORKFLOW, type WebhookDeliveryInput } from '../../workflows/messages';
import { CliError, defineCommand, SessionIdOption, table, when, type CommandGroup } from './cli';

const DeliveryIdOption = z.string().regex(/^wh_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be a webhook delivery id (wh_…)');

const list = defineCommand({
  name: 'list',
  summary: "list a session's webhook deliveries with every attempt (status code, latency, error)",
  options: { session: { value: '<cs_…>', description: 'session (required)' } },
  schema: z.object({ session: SessionIdOption }),
  async run(context, input) {
    if (!(await findSessionById(context.sql(), input.session))) throw new CliError(`session ${input.session} does not exist`);
    const deliveries = await listWebhookDeliveries(context.sql(), input.session);
    const text: string[] = deliveries.length === 0 ? [`no webhook deliveries for ${input.session}`] : [];
    for (const d of deliveries) {
      text.push(`${d.id}  ${d.event}  ${d.state}  created ${when(d.createdAt)}  delivered ${when(d.deliveredAt)}`, `  ${d.url}`);
      if (d.attempts.length === 0) text.push('  no attempt yet');
      else {
        const rows = d.attempts.map((a) => [String(a.attempt), when(a.startedAt), a.statusCode === null ? '-' : String(a.statusCode), `${a.latencyMs} ms`, a.error ?? '-']);
        text.push(...table(['ATTEMPT', 'STARTED', 'STATUS', 'LATENCY', 'ERROR'], rows).map((line) => `  ${line}`));
      }
    }
    return {
      json: {
        session_id: input.session,
        deliveries: deliveries.map((d) => ({
          delivery_id: d.id,
          event: d.event,
          url: d.url,
          state: d.state,
          created_at: d.createdAt.toISOString(),
          delivered_at: d.deliveredAt?.toISOString() ?? null,
          attempts: d.attempts.map((a) => ({
            attempt: a.attempt,
            started_at: a.startedAt.toISOString(),
            status_code: a.statusCode,
            latency_ms: a.latencyMs,
            error: a.error,
          })),
        })),
      },
      text,
    };
  },
});

const redeliver = defineCommand({
  name: 'redeliver',
  summary: 'send a webhook delivery again; it keeps its wh_ id, which receivers use as idempotency key',
  options: { delivery: { value: '<wh_…>', description: 'delivery id, as `webhooks list` shows it (required)' } },
  schema: z.object({ delivery: DeliveryIdOption }),
  async run(context, input) {
    const delivery = await findWebhookDeliverySession(context.sql(), input.delivery);
    if (!delivery) throw new CliError(`webhook delivery ${input.delivery} does not exist`);
    // A fresh workflow id: the original delivery workflow (id = the wh_ id) may still be retrying or
    // may have closed, and either way its id cannot start a second run.
    const workflowId = `${input.delivery}-redeliver-${ulid()}`;
    const args: [WebhookDeliveryInput] = [{ deliveryId: input.delivery }];
    const temporal = await context.temporal();
    const handle = await temporal.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, { workflowId, taskQueue: context.config.temporal.taskQueue, args });
    return {
      json: { delivery_id: input.delivery, session_id: delivery.sessionId, previous_state: delivery.state, workflow_id: workflowId, run_id: handle.firstExecutionRunId },
      text: [
        `redelivery of ${input.delivery} (${delivery.state}) started as workflow ${workflowId}`,
        `follow it with: checkout-admin webhooks list --session ${delivery.sessionId}`,
      ],
    };
  },
});

export const webhookCommands: CommandGroup = { name: 'webhooks', summary: 'webhook deliveries', commands: [list, redeliver] };
