// `webhooks list | redeliver`: what was sent for a session, every attempt's outcome, and a manual resend.
import { webhookDeliveryJson } from '../../api/webhookDeliveryJson';
import { startRedelivery } from '../../api/webhookRedelivery';
import { findSessionById } from '../../db/repositories/sessions';
import { findWebhookDeliverySession, listWebhookDeliveries } from '../../db/repositories/webhookHistory';
import { z } from '../../domain/wire/validationMessages';
import { CliError, defineCommand, SessionIdOption, table, when, type CommandGroup } from './cli';

const DeliveryIdOption = z.string().regex(/^wh_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be a webhook delivery id (wh_…)');

const list = defineCommand({
  name: 'list',
  summary: "list a session's webhook deliveries with every attempt (status code, latency, error)",
  options: { session: { value: '<cs_…>', description: 'session (required)' } },
  readOnly: true,
  schema: z.object({ session: SessionIdOption }),
  async run(context, input) {
    if (!(await findSessionById(context.sql(), input.session))) throw new CliError(`session ${input.session} does not exist`);
    const deliveries = await listWebhookDeliveries(context.sql(), input.session);
    const text: string[] = deliveries.length === 0 ? [`no webhook deliveries for ${input.session}`] : [];
    for (const d of deliveries) {
      text.push(`${d.id}  ${d.event}  ${d.state}  created ${when(d.createdAt)}  delivered ${when(d.deliveredAt)}`, `  ${d.url}`);
      if (d.attempts.length === 0) text.push('  no attempt yet');
      else {
        const rows = d.attempts.map((a) => [
          String(a.attempt),
          when(a.startedAt),
          a.statusCode === null ? '-' : String(a.statusCode),
          `${a.latencyMs} ms`,
          a.error ?? '-',
        ]);
        text.push(...table(['ATTEMPT', 'STARTED', 'STATUS', 'LATENCY', 'ERROR'], rows).map((line) => `  ${line}`));
      }
    }
    return {
      json: {
        session_id: input.session,
        deliveries: deliveries.map(webhookDeliveryJson),
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
    const { workflowId, runId } = await startRedelivery(await context.temporal(), context.config.temporal.taskQueue, input.delivery);
    return {
      json: {
        delivery_id: input.delivery,
        session_id: delivery.sessionId,
        previous_state: delivery.state,
        workflow_id: workflowId,
        run_id: runId,
      },
      text: [
        `redelivery of ${input.delivery} (${delivery.state}) started as workflow ${workflowId}`,
        `follow it with: checkout-admin webhooks list --session ${delivery.sessionId}`,
      ],
      targets: [input.delivery, workflowId],
    };
  },
});

export const webhookCommands: CommandGroup = { name: 'webhooks', summary: 'webhook deliveries', commands: [list, redeliver] };
