// `webhook-secret rotate`: a new signing secret for one mode of a merchant, printed once.
import { randomBytes } from 'node:crypto';
import { setWebhookSecret } from '../../db/repositories/merchants';
import { z } from '../../domain/validationMessages';
import { CliError, defineCommand, MerchantIdOption, ModeOption, type CommandGroup } from './cli';

const rotate = defineCommand({
  name: 'rotate',
  summary: "replace a merchant's webhook signing secret for one mode; the new secret is printed once",
  options: {
    merchant: { value: '<mer_…>', description: 'merchant (required)' },
    mode: { value: 'test|live', description: 'which secret: test-mode and live-mode deliveries are signed with different ones (required)' },
  },
  schema: z.object({ merchant: MerchantIdOption, mode: ModeOption }),
  async run(context, input) {
    const secret = `whsec_${randomBytes(32).toString('hex')}`;
    if (!(await setWebhookSecret(context.sql(), input.merchant, input.mode, secret))) throw new CliError(`merchant ${input.merchant} does not exist`);
    return {
      json: { merchant_id: input.merchant, mode: input.mode, webhook_secret: secret },
      text: [
        `new ${input.mode} webhook signing secret for ${input.merchant}:`,
        '',
        `  ${secret}`,
        '',
        'Deliveries signed from now on use it; the previous secret no longer verifies. It is not shown again.',
      ],
    };
  },
});

export const webhookSecretCommands: CommandGroup = { name: 'webhook-secret', summary: 'webhook signing secrets', commands: [rotate] };
