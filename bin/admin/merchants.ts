// `merchant create`: a merchant with its settlement wallet, amount tolerance, session lifetime, tokens, and what its
// sessions still underpaid at expiry do (docs/refunds.md#sources). `merchant set-fee`: what the operator keeps of the
// merchant's payouts from now on (docs/settlement.md#fees).
import { insertMerchant, setMerchantFee } from '../../db/repositories/merchants';
import { MAX_FEE_BPS, type MerchantFee } from '../../domain/settlement/merchantFee';
import { isSolanaAddress } from '../../domain/addresses/solana';
import { CHAINS, TOKENS, type Chain, type TokenChainPairs, type TokenSymbol } from '../../domain/chains/chains';
import { tokenContract } from '../../domain/chains/tokenContracts';
import { UNDERPAID_EXPIRY_CHOICES } from '../../domain/wire/session';
import { z } from '../../domain/wire/validationMessages';
import { CliError, defineCommand, integerOption, MerchantIdOption, type CommandGroup } from './cli';

/** Every pair a live session can actually be paid with: the default when --tokens is not given. */
function pairsWithMainnetContract(): TokenChainPairs {
  const pairs: TokenChainPairs = {};
  for (const token of TOKENS) pairs[token] = CHAINS.filter((chain) => tokenContract(token, chain, 'mainnet') !== null);
  return pairs;
}

/** `USDC:base,solana;USDT:tron` → { USDC: ['base', 'solana'], USDT: ['tron'] }, or a list of what is wrong. */
function parseTokenPairs(text: string): { pairs: TokenChainPairs } | { problems: string[] } {
  const pairs: TokenChainPairs = {};
  const problems: string[] = [];
  for (const group of text
    .split(';')
    .map((g) => g.trim())
    .filter(Boolean)) {
    const [tokenText = '', chainsText, extra] = group.split(':').map((part) => part.trim());
    const token = tokenText.toUpperCase() as TokenSymbol;
    if (!TOKENS.includes(token)) problems.push(`unknown token ${tokenText || '(empty)'} (expected ${TOKENS.join(' or ')})`);
    else if (pairs[token]) problems.push(`${token} is listed twice`);
    if (chainsText === undefined || extra !== undefined) {
      problems.push(`${group} must look like TOKEN:chain,chain`);
      continue;
    }
    const chains = chainsText
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter(Boolean);
    const unknown = chains.filter((chain) => !(CHAINS as readonly string[]).includes(chain));
    if (unknown.length > 0) problems.push(`unknown chain ${unknown.join(', ')} (expected one of ${CHAINS.join(', ')})`);
    if (chains.length === 0) problems.push(`${token} lists no chain`);
    if (TOKENS.includes(token) && unknown.length === 0) pairs[token] = CHAINS.filter((chain) => chains.includes(chain));
  }
  if (problems.length === 0 && Object.keys(pairs).length === 0) problems.push('lists no token');
  return problems.length > 0 ? { problems } : { pairs };
}

const TokensOption = z.string().transform((text, ctx) => {
  const result = parseTokenPairs(text);
  if ('problems' in result) {
    for (const message of result.problems) ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  }
  return result.pairs;
});

const create = defineCommand({
  name: 'create',
  summary: 'create a merchant',
  options: {
    name: { value: '<text>', description: 'display name (required)' },
    'settlement-wallet': { value: '<solana address>', description: 'where payments settle as USDC on Solana (required)' },
    'tolerance-bps': { value: '<n>', description: 'amount tolerance in basis points of the amount (default 50 = 0.5 %)' },
    'tolerance-min-cents': { value: '<n>', description: 'tolerance floor in US cents (default 1)' },
    'session-lifetime-minutes': { value: '<n>', description: 'time from creation to expires_at, 1 to 10080 (default 60)' },
    tokens: {
      value: '<pairs>',
      description: 'accepted pairs, e.g. "USDC:base,solana;USDT:tron" (default: every pair with a mainnet contract)',
    },
    'underpaid-expiry': {
      value: '<settle|refund>',
      description: 'a session still underpaid at expiry settles what arrived, or refunds it to the customer (default settle)',
    },
  },
  schema: z.object({
    name: z.string().trim().min(1).max(200),
    'settlement-wallet': z.string().refine(isSolanaAddress, 'Must be a Solana address (base58 of 32 bytes)'),
    'tolerance-bps': integerOption(0, 10_000).default(50),
    'tolerance-min-cents': integerOption(0, 1_000_000).default(1),
    'session-lifetime-minutes': integerOption(1, 7 * 24 * 60).default(60),
    tokens: TokensOption.optional(),
    'underpaid-expiry': z.enum(UNDERPAID_EXPIRY_CHOICES).default('settle'),
  }),
  async run(context, input) {
    const supportedTokens = input.tokens ?? pairsWithMainnetContract();
    // Test mode may still use such a pair (a test deployment configures its own token), so it is allowed.
    const warnings = Object.entries(supportedTokens).flatMap(([token, chains]) =>
      (chains as Chain[])
        .filter((chain) => tokenContract(token as TokenSymbol, chain, 'mainnet') === null)
        .map((chain) => `${token} on ${chain} has no mainnet contract: live sessions cannot be paid with it`),
    );
    const merchant = await insertMerchant(context.sql(), {
      name: input.name,
      settlementWallet: input['settlement-wallet'],
      toleranceBps: input['tolerance-bps'],
      toleranceMinCents: BigInt(input['tolerance-min-cents']),
      sessionLifetimeSeconds: input['session-lifetime-minutes'] * 60,
      supportedTokens,
      underpaidExpiry: input['underpaid-expiry'],
    });
    const tokens = Object.entries(merchant.supportedTokens)
      .map(([token, chains]) => `${token}:${(chains ?? []).join(',')}`)
      .join(';');
    return {
      json: {
        merchant_id: merchant.id,
        name: merchant.name,
        settlement_wallet: merchant.settlementWallet,
        tolerance_bps: merchant.toleranceBps,
        tolerance_min_cents: Number(merchant.toleranceMinCents),
        session_lifetime_minutes: merchant.sessionLifetimeSeconds / 60,
        supported_tokens: merchant.supportedTokens,
        underpaid_expiry: merchant.underpaidExpiry,
      },
      text: [
        `merchant ${merchant.id} created`,
        `  name               ${merchant.name}`,
        `  settlement wallet  ${merchant.settlementWallet ?? '-'}`,
        `  tolerance          ${merchant.toleranceBps} bps, at least ${merchant.toleranceMinCents} cent(s)`,
        `  session lifetime   ${merchant.sessionLifetimeSeconds / 60} minutes`,
        `  tokens             ${tokens}`,
        `  underpaid expiry   ${merchant.underpaidExpiry}`,
        'next: `key create --merchant ' + merchant.id + ' --mode test`, and `webhook-secret rotate` to learn a signing secret',
      ],
      warnings,
      targets: [merchant.id],
    };
  },
});

const feeText = (fee: MerchantFee) => `${fee.bps} bps + ${fee.fixedCents} cent(s)`;

const setFee = defineCommand({
  name: 'set-fee',
  summary: "set what the operator keeps of each of the merchant's treasury payouts from now on; written payouts keep theirs",
  positional: { name: 'merchant', value: '<mer_…>', description: 'the merchant' },
  options: {
    bps: { value: '<n>', description: `basis points of each payout's gross, 0 to ${MAX_FEE_BPS}, rounded down to a base unit (required)` },
    'fixed-cents': { value: '<n>', description: 'US cents on top of it per payout (required; 0 for none)' },
  },
  schema: z.object({
    merchant: MerchantIdOption,
    bps: integerOption(0, MAX_FEE_BPS),
    'fixed-cents': integerOption(0, 100_000_000),
  }),
  async run(context, input) {
    const fee: MerchantFee = { bps: input.bps, fixedCents: BigInt(input['fixed-cents']) };
    const changed = await setMerchantFee(context.sql(), input.merchant, fee);
    if (!changed) throw new CliError(`no merchant ${input.merchant}`);
    return {
      json: {
        merchant_id: input.merchant,
        fee_bps: fee.bps,
        fee_fixed_cents: Number(fee.fixedCents),
        previous: { fee_bps: changed.before.bps, fee_fixed_cents: Number(changed.before.fixedCents) },
      },
      text: [
        `merchant ${input.merchant}: fee ${feeText(fee)} per payout (was ${feeText(changed.before)})`,
        'payouts written from now on deduct it; those already written keep the fee they were written with',
      ],
      targets: [input.merchant],
    };
  },
});

export const merchantCommands: CommandGroup = { name: 'merchant', summary: 'merchants', commands: [create, setFee] };
