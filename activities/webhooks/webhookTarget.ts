// Enforcement of the webhook target policy (domain/webhooks/webhookTargetPolicy.ts) at delivery. Under the strict
// policy the address check runs in the socket's own DNS lookup, so a hostname cannot pass the check with one
// address and connect with another; the lookup asks the DNS servers directly (c-ares, with a timeout) rather
// than through getaddrinfo, whose hung calls would each hold one of libuv's four threads.
import { Resolver } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { addressAllowed, webhookUrlProblem, type WebhookTargetPolicy } from '../../domain/webhooks/webhookTargetPolicy';

export class WebhookTargetRefusedError extends Error {
  override name = 'WebhookTargetRefusedError';
}

/** Rejects URLs the policy refuses before any connection is made. */
export function assertWebhookUrl(policy: WebhookTargetPolicy, url: URL): void {
  const problem = webhookUrlProblem(policy, url);
  if (problem) throw new WebhookTargetRefusedError(`webhook URL refused: ${problem}`);
}

async function resolveAll(hostname: string, timeoutMs: number): Promise<LookupAddress[]> {
  const family = isIP(hostname);
  if (family !== 0) return [{ address: hostname, family }];
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
  const addresses = [
    ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
  ];
  if (addresses.length === 0) {
    const failure = v4.status === 'rejected' ? (v4.reason as Error) : undefined;
    throw new Error(`webhook host ${hostname} did not resolve${failure ? `: ${failure.message}` : ''}`);
  }
  return addresses;
}

/**
 * A DNS lookup that fails when any resolved address is one the policy refuses, or when resolution takes
 * longer than `timeoutMs`; undefined (the system's lookup) when the policy allows every address.
 */
export function policyLookup(policy: WebhookTargetPolicy, timeoutMs: number): LookupFunction | undefined {
  if (!policy.strict) return undefined;
  return (hostname, options, callback) => {
    resolveAll(hostname, timeoutMs).then(
      (addresses) => {
        const refused = addresses.find((a) => !addressAllowed(policy, a.address));
        if (refused)
          return callback(new WebhookTargetRefusedError(`webhook host ${hostname} resolves to non-public ${refused.address}`), '', 0);
        const usable = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
        const first = usable[0];
        if (!first) return callback(new WebhookTargetRefusedError(`webhook host ${hostname} has no IPv${options.family} address`), '', 0);
        return callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, '', 0),
    );
  };
}
