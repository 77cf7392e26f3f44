// Stand-in for Circle's attestation service (Iris) on loopback: the V2 endpoints a transfer uses, with the
// published answer shapes (developers.circle.com/api-reference/cctp/all). It watches the local EVM chain by
// reading the burn transaction's receipt, answers 404 until the burn is mined, `pending_confirmations` for a
// configurable time, then `complete` with the message as Iris fills it (nonce, finalityThresholdExecuted,
// feeExecuted, expirationBlock) signed with the local attester key. Faults (5xx, slow answers, expired
// attestations) are injected per test. Not for anything but local chains.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeAbiParameters, isAddressEqual, isHex, keccak256, parseEventLogs, TransactionReceiptNotFoundError } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import { sign } from 'viem/accounts';
import { messageTransmitterV2Abi } from '../../domain/cctp/cctpAbi';
import { FINALITY_THRESHOLD_FAST, FINALITY_THRESHOLD_STANDARD } from '../../domain/cctp/finality';
import { maxFeeFor } from '../../domain/cctp/maxFee';
import type { CctpFeeQuote } from '../../domain/cctp/maxFee';
import { bytes32ToAddress, decodeBurnMessageV2, decodeMessageV2, encodeBurnMessageV2, encodeMessageV2 } from '../../domain/cctp/messageV2';
import type { BurnMessageV2, MessageV2 } from '../../domain/cctp/messageV2';
import { LOCAL_ATTESTER_PRIVATE_KEY } from './attester';

export interface AttestationServerOptions {
  /** Reads burn receipts from the local chain. */
  publicClient: PublicClient;
  /** Only `MessageSent` logs of this contract count, as Iris only trusts the real MessageTransmitterV2. */
  messageTransmitter: Address;
  sourceDomain: number;
  /** How long a seen burn stays pending; 0 completes it on the first look after it is mined. */
  confirmationMs?: number;
  fees?: CctpFeeQuote[];
  /** The destination chain's current block (a Solana slot); expirationBlock = it + expirationBlocks. */
  destinationBlock?: () => bigint | Promise<bigint>;
  expirationBlocks?: bigint;
  attesterKey?: Hex;
  /** Injected so tests move time on without waiting for it. */
  now?: () => number;
}

export interface AttestationServer {
  url: string;
  /** The next `count` requests, whatever they ask, are answered `status` with `body` (an error body by default). */
  failNext(count: number, status?: number, body?: unknown): void;
  /**
   * The next `count` requests are answered only after `ms`, to run into the client's timeout; with
   * `afterHeaders`, a 200 status line goes out at once and the body only after `ms` (a stalling proxy).
   */
  delayNext(count: number, ms: number, options?: { afterHeaders?: boolean }): void;
  /** The next attestation issued (first or re-attestation) carries an expirationBlock already reached. */
  expireNext(): void;
  /** Requests answered so far, by path without the query: what a test can count polls with. */
  requests(): string[];
  stop(): Promise<void>;
}

// Iris's fees for a burn to Solana at the time of writing: Fast 1 bps, Standard free.
const DEFAULT_FEES: CctpFeeQuote[] = [
  { finalityThreshold: FINALITY_THRESHOLD_FAST, minimumFee: 1 },
  { finalityThreshold: FINALITY_THRESHOLD_STANDARD, minimumFee: 0 },
];

interface Burn {
  firstSeenAt: number;
  messages: BurnMessage[];
}

interface BurnMessage {
  emitted: Hex;
  nonce: Hex;
  attested?: { message: Hex; attestation: Hex; decoded: { header: MessageV2; body: BurnMessageV2 } };
  /** Fee terms the burn does not meet: Iris leaves it pending with this reason. */
  delayReason?: string;
}

export async function startAttestationServer(options: AttestationServerOptions): Promise<AttestationServer> {
  const now = options.now ?? Date.now;
  const fees = options.fees ?? DEFAULT_FEES;
  const confirmationMs = options.confirmationMs ?? 0;
  const expirationBlocks = options.expirationBlocks ?? 10_000n;
  const destinationBlock = options.destinationBlock ?? (() => 0n);
  const attesterKey = options.attesterKey ?? LOCAL_ATTESTER_PRIVATE_KEY;
  const burns = new Map<Hex, Burn>();
  const faults = {
    fail: [] as { status: number; body: unknown }[],
    delay: [] as { ms: number; afterHeaders: boolean }[],
    expireNext: false,
  };
  const seenPaths: string[] = [];

  const attest = async (entry: BurnMessage): Promise<void> => {
    const header = decodeMessageV2(entry.emitted);
    const body = decodeBurnMessageV2(header.messageBody);
    const terms = executedTerms(header.minFinalityThreshold, body.amount, body.maxFee, fees);
    if ('delayReason' in terms) {
      entry.delayReason = terms.delayReason;
      return;
    }
    const current = await destinationBlock();
    const expirationBlock = faults.expireNext ? (current > 0n ? current : 1n) : current + expirationBlocks;
    faults.expireNext = false;
    const filledBody: BurnMessageV2 = { ...body, feeExecuted: terms.feeExecuted, expirationBlock };
    const filledHeader: MessageV2 = {
      ...header,
      nonce: entry.nonce,
      finalityThresholdExecuted: terms.finalityThresholdExecuted,
      messageBody: encodeBurnMessageV2(filledBody),
    };
    const message = encodeMessageV2(filledHeader);
    const attestation = await sign({ hash: keccak256(message), privateKey: attesterKey, to: 'hex' });
    entry.attested = { message, attestation, decoded: { header: filledHeader, body: filledBody } };
    delete entry.delayReason;
  };

  const lookUp = async (transactionHash: Hex): Promise<Burn | undefined> => {
    const known = burns.get(transactionHash);
    if (known) return known;
    let receipt;
    try {
      receipt = await options.publicClient.getTransactionReceipt({ hash: transactionHash });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    }
    if (receipt.status !== 'success') return undefined;
    const logs = parseEventLogs({ abi: messageTransmitterV2Abi, eventName: 'MessageSent', logs: receipt.logs }).filter((log) =>
      isAddressEqual(log.address, options.messageTransmitter),
    );
    if (logs.length === 0) return undefined;
    const burn: Burn = {
      firstSeenAt: now(),
      messages: logs.map((log) => ({
        emitted: log.args.message,
        // Unique per message: Iris's nonces are opaque bytes32 values, not counters.
        nonce: keccak256(
          encodeAbiParameters(
            [{ type: 'uint32' }, { type: 'bytes32' }, { type: 'uint256' }],
            [options.sourceDomain, transactionHash, BigInt(log.logIndex)],
          ),
        ),
      })),
    };
    burns.set(transactionHash, burn);
    return burn;
  };

  const messagesAnswer = async (burn: Burn) => {
    if (now() - burn.firstSeenAt >= confirmationMs) {
      for (const entry of burn.messages) if (!entry.attested) await attest(entry);
    }
    return { messages: burn.messages.map(messageView) };
  };

  const route = async (request: IncomingMessage): Promise<{ status: number; body: unknown }> => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const messages = /^\/v2\/messages\/(\d+)$/.exec(url.pathname);
    const feesPath = /^\/v2\/burn\/USDC\/fees\/(\d+)\/(\d+)$/.exec(url.pathname);
    const reattest = /^\/v2\/reattest\/(0x[0-9a-fA-F]{64})$/.exec(url.pathname);
    if (request.method === 'GET' && messages) {
      const transactionHash = url.searchParams.get('transactionHash')?.toLowerCase();
      if (!transactionHash || !isHex(transactionHash) || transactionHash.length !== 66)
        return { status: 400, body: { error: 'Invalid transactionHash' } };
      const burn = Number(messages[1]) === options.sourceDomain ? await lookUp(transactionHash) : undefined;
      return burn ? { status: 200, body: await messagesAnswer(burn) } : { status: 404, body: { error: 'Message hash not found' } };
    }
    if (request.method === 'GET' && feesPath) return { status: 200, body: fees };
    if (request.method === 'POST' && reattest) {
      const nonce = (reattest[1] as string).toLowerCase();
      const entry = [...burns.values()]
        .flatMap((burn) => burn.messages)
        .find((candidate) => candidate.nonce === nonce && candidate.attested);
      if (!entry) return { status: 404, body: { error: 'Nonce not found' } };
      await attest(entry);
      return { status: 200, body: { message: 'Re-attestation successfully requested for nonce.', nonce } };
    }
    return { status: 404, body: { error: 'Not found' } };
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    seenPaths.push(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    const reply = (status: number, body: unknown) => {
      if (!response.headersSent) response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const delay = faults.delay.shift();
    const failure = faults.fail.shift();
    const answer = async () => {
      if (failure !== undefined) return reply(failure.status, failure.body);
      try {
        const { status, body } = await route(request);
        reply(status, body);
      } catch {
        reply(500, { error: 'Internal error' });
      }
    };
    request.resume();
    request.on('end', () => {
      if (!delay) return void answer();
      if (delay.afterHeaders) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.flushHeaders();
      }
      setTimeout(() => void answer(), delay.ms).unref();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    failNext: (count, status = 503, body = { error: 'Injected fault' }) =>
      faults.fail.push(...Array.from({ length: count }, () => ({ status, body }))),
    delayNext: (count, ms, { afterHeaders = false } = {}) =>
      faults.delay.push(...Array.from({ length: count }, () => ({ ms, afterHeaders }))),
    expireNext: () => {
      faults.expireNext = true;
    },
    requests: () => [...seenPaths],
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * What Iris executes: Fast (1000) when the burn asked for it and its maxFee covers the Fast fee, else Standard
 * (2000); a maxFee below even the Standard fee leaves the message pending (`insufficient_fee`).
 */
function executedTerms(
  minFinalityThreshold: number,
  amount: bigint,
  maxFee: bigint,
  fees: CctpFeeQuote[],
): { finalityThresholdExecuted: number; feeExecuted: bigint } | { delayReason: string } {
  const feeAt = (speed: 'fast' | 'standard') => {
    try {
      return maxFeeFor(amount, fees, speed);
    } catch {
      return undefined;
    }
  };
  const fast = feeAt('fast');
  if (minFinalityThreshold <= FINALITY_THRESHOLD_FAST && fast !== undefined && fast <= maxFee)
    return { finalityThresholdExecuted: FINALITY_THRESHOLD_FAST, feeExecuted: fast };
  const standard = feeAt('standard');
  if (standard === undefined || standard > maxFee) return { delayReason: 'insufficient_fee' };
  return { finalityThresholdExecuted: FINALITY_THRESHOLD_STANDARD, feeExecuted: standard };
}

function messageView(entry: BurnMessage) {
  if (!entry.attested) {
    return {
      message: '0x',
      eventNonce: '',
      attestation: 'PENDING',
      decodedMessage: null,
      cctpVersion: 2,
      status: 'pending_confirmations',
      delayReason: entry.delayReason ?? null,
    };
  }
  const { message, attestation, decoded } = entry.attested;
  const { header, body } = decoded;
  return {
    message,
    eventNonce: header.nonce,
    attestation,
    decodedMessage: {
      sourceDomain: String(header.sourceDomain),
      destinationDomain: String(header.destinationDomain),
      nonce: header.nonce,
      sender: bytes32ToAddress(header.sender),
      recipient: header.recipient,
      destinationCaller: header.destinationCaller,
      minFinalityThreshold: String(header.minFinalityThreshold),
      finalityThresholdExecuted: String(header.finalityThresholdExecuted),
      messageBody: header.messageBody,
      decodedMessageBody: {
        burnToken: bytes32ToAddress(body.burnToken),
        mintRecipient: body.mintRecipient,
        amount: String(body.amount),
        messageSender: bytes32ToAddress(body.messageSender),
        maxFee: String(body.maxFee),
        feeExecuted: String(body.feeExecuted),
        expirationBlock: String(body.expirationBlock),
        hookData: body.hookData,
      },
    },
    cctpVersion: 2,
    status: 'complete',
    delayReason: null,
  };
}
