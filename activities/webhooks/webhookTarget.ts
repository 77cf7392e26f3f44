// Enforcement of the webhook target policy (domain/webhookTargetPolicy.ts) at delivery. The address check
// runs in the socket's own DNS lookup, so a hostname cannot pass the check with one address and connect
// with another.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressAllowed, webhookUrlProblem, type WebhookTargetPolicy } from '../../domain/webhookTargetPolicy';

export class WebhookTargetRefusedError extends Error {
  override name = 'WebhookTargetRefusedError';
}

/** Rejects URLs the policy refuses before any connection is made. */
export function assertWebhookUrl(policy: WebhookTargetPolicy, url: URL): void {
  const problem = webhookUrlProblem(policy, url);
  if (problem) throw new WebhookTargetRefusedError(`webhook URL refused: ${problem}`);
}

/** A DNS lookup that fails when any resolved address is one the policy refuses; undefined when every address is allowed. */
export function policyLookup(policy: WebhookTargetPolicy): LookupFunction | undefined {
  if (!policy.strict) return undefined;
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((a) => !addressAllowed(policy, a.address));
      if (refused) return callback(new WebhookTargetRefusedError(`webhook host ${hostname} resolves to non-public ${refused.address}`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new WebhookTargetRefusedError(`webhook host ${hostname} has no address`), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}
