// A thin client of Circle's CCTP attestation service (Iris): the three V2 calls a transfer needs. Shapes as
// Circle's API reference publishes them (developers.circle.com/api-reference/cctp/all: get-messages-v2,
// get-burn-usdc-fees, reattest-message). The service has no API key; rate limit 35 requests a second, beyond
// which every request is refused with 429 for five minutes, so pollers wait seconds between calls.
import { isHex } from 'viem';
import type { Hex } from 'viem';
import { z } from 'zod';
import type { CctpFeeQuote } from '../../domain/cctp/maxFee';
import { decodeMessageV2, MESSAGE_V2_VERSION } from '../../domain/cctp/messageV2';
import { fetchJson, parseAnswer, RemoteApiError, type RemoteApiErrorKind } from '../../activities/http/jsonApi';

export const DEFAULT_ATTESTATION_TIMEOUT_MS = 10_000;

export interface AttestationClientOptions {
  /** e.g. https://iris-api.circle.com (mainnet) or https://iris-api-sandbox.circle.com (testnets). */
  baseUrl: string;
  timeoutMs?: number;
}

/** A message Iris has signed: submit `message` and `attestation` as they are, never the bytes from the log. */
export interface AttestedMessage {
  message: Hex;
  attestation: Hex;
  /** bytes32, filled by Iris; the key of `POST /v2/reattest` and of the destination's used-nonce account. */
  nonce: Hex;
}

export type AttestationLookup =
  { state: 'not-seen' } | { state: 'pending'; delayReason: string | null } | { state: 'complete'; messages: AttestedMessage[] };

export interface AttestationClient {
  /** The messages of a burn transaction; `not-seen` until Iris has indexed it (a 404, or an empty list). */
  messages(sourceDomain: number, transactionHash: Hex): Promise<AttestationLookup>;
  fees(sourceDomain: number, destinationDomain: number): Promise<CctpFeeQuote[]>;
  /** Asks for a fresh attestation (a new expirationBlock) of an expired message; poll `messages` again after. */
  reattest(nonce: Hex): Promise<void>;
}

export type AttestationErrorKind = RemoteApiErrorKind;

export class AttestationApiError extends RemoteApiError {
  override name = 'AttestationApiError';
  constructor(kind: AttestationErrorKind, endpoint: string, detail: string, status?: number) {
    super(kind, endpoint, `attestation service, ${endpoint}: ${detail}`, status);
  }
}

const hexString = z.string().refine((value) => isHex(value, { strict: true }) && value.length % 2 === 0, 'not 0x-prefixed hex bytes');
// Circle's examples write decoded numbers as strings in one version and numbers in another.
const numeric = z.union([z.string(), z.number()]);

const messageSchema = z.object({
  message: z.string(),
  eventNonce: z.string(),
  attestation: z.string(),
  cctpVersion: numeric,
  status: z.string(),
  delayReason: z.string().nullish(),
  decodedMessage: z
    .object({
      sourceDomain: numeric,
      destinationDomain: numeric,
      nonce: z.string(),
      decodedMessageBody: z.object({ amount: numeric, mintRecipient: z.string(), burnToken: z.string() }).loose().nullish(),
    })
    .loose()
    .nullish(),
});

const messagesSchema = z.object({ messages: z.array(messageSchema) });

const feesSchema = z.array(
  z.object({
    finalityThreshold: z.number().int(),
    minimumFee: z.number().nonnegative(),
    forwardFee: z.object({ low: z.number(), medium: z.number(), high: z.number() }).optional(),
  }),
);

const reattestSchema = z.object({ message: z.string(), nonce: z.string() });

export function createAttestationClient({
  baseUrl,
  timeoutMs = DEFAULT_ATTESTATION_TIMEOUT_MS,
}: AttestationClientOptions): AttestationClient {
  const base = new URL(baseUrl);

  const failOn = (endpoint: string) => (kind: AttestationErrorKind, detail: string, status?: number) =>
    new AttestationApiError(kind, endpoint, detail, status);
  // A 404 is Iris's "not seen yet", not a refusal.
  const request = (endpoint: string, path: string, init: { method: 'GET' | 'POST' }) =>
    fetchJson(new URL(path, base), init, { timeoutMs, fail: failOn(endpoint), passStatuses: [404] });
  const parse = <T>(endpoint: string, schema: z.ZodType<T>, body: unknown): T => parseAnswer(schema, body, failOn(endpoint));

  return {
    async messages(sourceDomain, transactionHash) {
      const endpoint = 'GET /v2/messages';
      domainOf(sourceDomain);
      if (!isHex(transactionHash) || transactionHash.length !== 66)
        throw new AttestationApiError('refused', endpoint, 'a transaction hash is 32 bytes of hex');
      const { status, body } = await request(endpoint, `/v2/messages/${sourceDomain}?transactionHash=${transactionHash}`, {
        method: 'GET',
      });
      if (status === 404) return { state: 'not-seen' };
      const { messages } = parse(endpoint, messagesSchema, body);
      if (messages.length === 0) return { state: 'not-seen' };
      const pending = messages.find((entry) => entry.status !== 'complete');
      if (pending) return { state: 'pending', delayReason: pending.delayReason ?? null };
      return { state: 'complete', messages: messages.map((entry) => attested(endpoint, entry)) };
    },

    async fees(sourceDomain, destinationDomain) {
      const endpoint = 'GET /v2/burn/USDC/fees';
      const { status, body } = await request(endpoint, `/v2/burn/USDC/fees/${domainOf(sourceDomain)}/${domainOf(destinationDomain)}`, {
        method: 'GET',
      });
      if (status === 404) throw new AttestationApiError('refused', endpoint, 'no such route', 404);
      return parse(endpoint, feesSchema, body).map(({ finalityThreshold, minimumFee }) => ({ finalityThreshold, minimumFee }));
    },

    async reattest(nonce) {
      const endpoint = 'POST /v2/reattest';
      if (!isHex(nonce) || nonce.length !== 66) throw new AttestationApiError('refused', endpoint, 'a CCTP V2 nonce is 32 bytes of hex');
      const { status, body } = await request(endpoint, `/v2/reattest/${nonce}`, { method: 'POST' });
      if (status === 404) throw new AttestationApiError('refused', endpoint, 'the service knows no message with this nonce', 404);
      parse(endpoint, reattestSchema, body);
    },
  };
}

function domainOf(domain: number): number {
  if (!Number.isInteger(domain) || domain < 0 || domain > 0xffff_ffff)
    throw new AttestationApiError('refused', 'request', `${domain} is not a CCTP domain`);
  return domain;
}

// A complete message must carry bytes that decode, a signature, and the nonce Iris filled in: anything less is
// not something to submit on the destination chain.
function attested(endpoint: string, entry: z.infer<typeof messageSchema>): AttestedMessage {
  const message = hexString.safeParse(entry.message);
  const attestation = hexString.safeParse(entry.attestation);
  if (!message.success || !attestation.success)
    throw new AttestationApiError('malformed', endpoint, 'a complete message without message or attestation bytes');
  let header;
  try {
    header = decodeMessageV2(message.data as Hex);
  } catch {
    throw new AttestationApiError('malformed', endpoint, 'a complete message that is not a CCTP V2 message');
  }
  // V1 messages (version 0) share the endpoint and would decode as garbage here.
  if (header.version !== MESSAGE_V2_VERSION)
    throw new AttestationApiError('malformed', endpoint, `a complete message of version ${header.version}, not CCTP V2`);
  const { nonce } = header;
  if (/^0x0*$/.test(nonce)) throw new AttestationApiError('malformed', endpoint, 'a complete message without a nonce');
  return { message: message.data as Hex, attestation: attestation.data as Hex, nonce };
}
