// `webhook-secret rotate`: a new signing secret for one mode of a merchant, printed once.
import { rotateWebhookSecret } from '../../db/repositories/merchants';
import { DEFAULT_OVERLAP_HOURS, MAX_OVERLAP_HOURS, newWebhookSecret, previousSecretUntil } from '../../domain/webhooks/webhookSecret';
import { z } from '../../domain/wire/validationMessages';
import { CliError, defineCommand, MerchantIdOption, ModeOption, type CommandGroup } from './cli';

const rotate = defineCommand({
  name: 'rotate',
  summary: "replace a merchant's webhook signing secret for one mode; the new secret is printed once",
  options: {
    merchant: { value: '<mer_…>', description: 'merchant (required)' },
    mode: { value: 'test|live', description: 'which secret: test-mode and live-mode deliveries are signed with different ones (required)' },
    'overlap-hours': {
      value: '<0-168>',
      description:
        'how long deliveries also carry a signature with the secret being replaced, so receivers can switch at leisure (default 24; 0: the old secret stops at once, e.g. when it leaked)',
    },
  },
  schema: z.object({
    merchant: MerchantIdOption,
    mode: ModeOption,
    'overlap-hours': z.coerce.number().int().min(0).max(MAX_OVERLAP_HOURS).default(DEFAULT_OVERLAP_HOURS),
  }),
  async run(context, input) {
    const secret = newWebhookSecret();
    const previousUntil = previousSecretUntil(new Date(), input['overlap-hours']);
    if (!(await rotateWebhookSecret(context.sql(), input.merchant, input.mode, secret, previousUntil)))
      throw new CliError(`merchant ${input.merchant} does not exist`);
    return {
      json: {
        merchant_id: input.merchant,
        mode: input.mode,
        webhook_secret: secret,
        previous_secret_valid_until: previousUntil?.toISOString() ?? null,
      },
      text: [
        `new ${input.mode} webhook signing secret for ${input.merchant}:`,
        '',
        `  ${secret}`,
        '',
        previousUntil
          ? `Deliveries are signed with it from now on, and also with the previous secret until ${previousUntil.toISOString()} (two v1= values), so receivers can switch in that time.`
          : 'Deliveries are signed with it from now on; the previous secret no longer verifies.',
        'It is not shown again.',
      ],
      targets: [input.merchant],
    };
  },
});

export const webhookSecretCommands: CommandGroup = { name: 'webhook-secret', summary: 'webhook signing secrets', commands: [rotate] };
