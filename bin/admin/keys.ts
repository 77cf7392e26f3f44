// `key create | list | revoke | allow-ips`: merchant API keys. A raw key is printed once, at creation;
// only its SHA-256 hash is stored, so it can never be shown again.
import {
  createApiKey,
  findApiKeySummary,
  listApiKeys,
  revokeApiKey,
  setApiKeyAllowedIps,
  type ApiKeySummary,
} from '../../db/repositories/apiKeys';
import { findMerchant } from '../../db/repositories/merchants';
import { IpAllowlistText } from '../../domain/security/ipAllowlist';
import { z } from '../../domain/wire/validationMessages';
import { CliError, defineCommand, MerchantIdOption, ModeOption, table, when, type AdminContext, type CommandGroup } from './cli';

const KeyIdOption = z.string().regex(/^key_[0-9A-HJKMNP-TV-Z]{26}$/, 'Must be an API key id (key_…)');

async function requireMerchant(context: AdminContext, merchantId: string): Promise<void> {
  if (!(await findMerchant(context.sql(), merchantId))) throw new CliError(`merchant ${merchantId} does not exist`);
}

async function requireKey(context: AdminContext, keyId: string): Promise<ApiKeySummary> {
  const key = await findApiKeySummary(context.sql(), keyId);
  if (!key) throw new CliError(`API key ${keyId} does not exist`);
  return key;
}

const masked = (key: ApiKeySummary) => `${key.prefix}…${key.last4}`;

const keyJson = (key: ApiKeySummary) => ({
  key_id: key.id,
  merchant_id: key.merchantId,
  mode: key.mode,
  key: masked(key),
  label: key.label,
  allowed_ips: key.allowedIps,
  created_at: key.createdAt.toISOString(),
  revoked_at: key.revokedAt?.toISOString() ?? null,
});

const create = defineCommand({
  name: 'create',
  summary: 'create an API key; the raw key is printed once and never stored',
  options: {
    merchant: { value: '<mer_…>', description: 'merchant the key acts for (required)' },
    mode: { value: 'test|live', description: 'mk_test_ keys simulate payments, mk_live_ keys take real ones (required)' },
    label: { value: '<text>', description: 'a note for operators, e.g. "production server"' },
  },
  schema: z.object({ merchant: MerchantIdOption, mode: ModeOption, label: z.string().trim().min(1).max(100).optional() }),
  async run(context, input) {
    await requireMerchant(context, input.merchant);
    const { id, raw } = await createApiKey(context.sql(), input.merchant, input.mode, input.label);
    return {
      json: { key_id: id, merchant_id: input.merchant, mode: input.mode, label: input.label ?? null, api_key: raw },
      text: [
        `API key ${id} (${input.mode}) created for ${input.merchant}${input.label ? ` (${input.label})` : ''}`,
        '',
        `  ${raw}`,
        '',
        'This is the only time the key is shown: only its hash is stored. Keep it on the merchant server.',
      ],
      targets: [id],
    };
  },
});

const list = defineCommand({
  name: 'list',
  summary: "list a merchant's API keys (prefix and last four characters only)",
  options: { merchant: { value: '<mer_…>', description: 'merchant (required)' } },
  readOnly: true,
  schema: z.object({ merchant: MerchantIdOption }),
  async run(context, input) {
    await requireMerchant(context, input.merchant);
    const keys = await listApiKeys(context.sql(), input.merchant);
    return {
      json: { merchant_id: input.merchant, keys: keys.map(keyJson) },
      text:
        keys.length === 0
          ? [`${input.merchant} has no API keys`]
          : table(
              ['ID', 'MODE', 'KEY', 'LABEL', 'CREATED', 'REVOKED', 'ALLOWED IPS'],
              keys.map((k) => [
                k.id,
                k.mode,
                masked(k),
                k.label ?? '-',
                when(k.createdAt),
                when(k.revokedAt),
                k.allowedIps?.join(',') ?? 'any',
              ]),
            ),
    };
  },
});

const revoke = defineCommand({
  name: 'revoke',
  summary: 'revoke an API key; requests with it are refused (403) from then on',
  options: { key: { value: '<key_…>', description: 'key id, as `key list` shows it (required)' } },
  schema: z.object({ key: KeyIdOption }),
  async run(context, input) {
    const before = await requireKey(context, input.key);
    const revokedNow = await revokeApiKey(context.sql(), input.key);
    const key = await requireKey(context, input.key);
    return {
      json: { ...keyJson(key), already_revoked: !revokedNow },
      text: [
        revokedNow ? `API key ${key.id} (${masked(before)}) revoked` : `API key ${key.id} was already revoked at ${when(key.revokedAt)}`,
      ],
      targets: [key.id],
    };
  },
});

const allowIps = defineCommand({
  name: 'allow-ips',
  summary: 'restrict an API key to IP addresses and CIDR ranges (IPv4 or IPv6), or lift the restriction',
  options: {
    key: { value: '<key_…>', description: 'key id (required)' },
    ips: {
      value: '<list>',
      description: 'comma-separated addresses and ranges, e.g. 203.0.113.7,10.0.0.0/8,2001:db8::/32; replaces the current list',
    },
    clear: { description: 'allow the key from any address again' },
  },
  schema: z
    .object({ key: KeyIdOption, ips: IpAllowlistText.optional(), clear: z.boolean().optional() })
    .refine((o) => (o.ips !== undefined) !== (o.clear === true), { message: 'give exactly one of --ips and --clear' }),
  async run(context, input) {
    await requireKey(context, input.key);
    const allowedIps = input.clear ? null : (input.ips ?? null);
    await setApiKeyAllowedIps(context.sql(), input.key, allowedIps);
    const key = await requireKey(context, input.key);
    return {
      json: keyJson(key),
      text: [
        allowedIps
          ? `API key ${key.id} is now allowed only from ${allowedIps.join(', ')}`
          : `API key ${key.id} is allowed from any address`,
      ],
      targets: [key.id],
    };
  },
});

export const keyCommands: CommandGroup = { name: 'key', summary: 'merchant API keys', commands: [create, list, revoke, allowIps] };
