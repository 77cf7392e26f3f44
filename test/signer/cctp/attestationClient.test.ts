import { address } from '@solana/kit';
import { getAddress, keccak256, parseAbi, recoverAddress, toHex } from 'viem';
import type { Address, Hash } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AttestationApiError, createAttestationClient } from '../../../signer/cctp/attestationClient';
import type { AttestationClient, AttestedMessage } from '../../../signer/cctp/attestationClient';
import { depositForBurnCalldata, solanaAddressBytes32 } from '../../../domain/cctp/depositForBurn';
import { SOLANA_CCTP_DOMAIN } from '../../../domain/cctp/domains';
import type { CctpSpeed } from '../../../domain/cctp/finality';
import { maxFeeFor } from '../../../domain/cctp/maxFee';
import { addressToBytes32, decodeBurnMessageV2, decodeMessageV2 } from '../../../domain/cctp/messageV2';
import { startAttestationServer } from '../../../toolchain/cctp/attestationServer';
import type { AttestationServer } from '../../../toolchain/cctp/attestationServer';
import { LOCAL_ATTESTER_ADDRESS } from '../../../toolchain/cctp/attester';
import { deployCctpStandIn } from '../../../toolchain/cctp/cctpStandIn';
import type { CctpStandIn } from '../../../toolchain/cctp/cctpStandIn';
import { createLocalChain } from '../../../toolchain/localChain/localChain';
import type { LocalChain } from '../../../toolchain/localChain/localChain';

const approveAbi = parseAbi(['function approve(address spender, uint256 value) returns (bool)']);
const treasuryTokenAccount = solanaAddressBytes32(address('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'));
const CONFIRMATION_MS = 60_000;
const EXPIRATION_BLOCKS = 10_000n;
const depositor = 4;

describe('the attestation client against the local attestation stand-in, burns on Hardhat', () => {
  let chain: LocalChain;
  let usdc: Address;
  let standIn: CctpStandIn;
  let server: AttestationServer;
  let client: AttestationClient;
  let clock = 1_000_000;
  let solanaSlot = 500n;

  beforeAll(async () => {
    chain = await createLocalChain();
    usdc = getAddress(await chain.deployToken({ symbol: 'USDC', decimals: 6 }));
    standIn = await deployCctpStandIn(chain, { burnToken: usdc });
    await chain.mint(usdc, chain.account(depositor).address, 1_000_000_000n);
    server = await startAttestationServer({
      publicClient: chain.publicClient,
      messageTransmitter: standIn.messageTransmitter,
      sourceDomain: standIn.localDomain,
      confirmationMs: CONFIRMATION_MS,
      expirationBlocks: EXPIRATION_BLOCKS,
      destinationBlock: () => solanaSlot,
      now: () => clock,
    });
    client = createAttestationClient({ baseUrl: server.url, timeoutMs: 2_000 });
  });

  afterAll(async () => {
    await server?.stop();
    await chain?.stop();
  });

  beforeEach(async () => {
    await chain.setAutomine(true);
  });

  async function approve(amount: bigint): Promise<void> {
    const hash = await chain
      .walletClientFor(depositor)
      .writeContract({ address: usdc, abi: approveAbi, functionName: 'approve', args: [standIn.tokenMessenger, amount] });
    await chain.publicClient.waitForTransactionReceipt({ hash });
  }

  /** approve + depositForBurn as the relayer will send them; resolves with the burn's hash once it is sent. */
  async function sendBurn(amount: bigint, speed: CctpSpeed, maxFee: bigint): Promise<Hash> {
    await approve(amount);
    return sendApprovedBurn(amount, speed, maxFee);
  }

  async function sendApprovedBurn(amount: bigint, speed: CctpSpeed, maxFee: bigint): Promise<Hash> {
    const wallet = chain.walletClientFor(depositor);
    const data = depositForBurnCalldata({
      amount,
      destinationDomain: SOLANA_CCTP_DOMAIN,
      mintRecipient: treasuryTokenAccount,
      burnToken: usdc,
      maxFee,
      speed,
    });
    return wallet.sendTransaction({ to: standIn.tokenMessenger, data });
  }

  async function attestedNow(hash: Hash): Promise<AttestedMessage> {
    clock += CONFIRMATION_MS;
    const lookup = await client.messages(standIn.localDomain, hash);
    if (lookup.state !== 'complete') throw new Error(`expected a complete attestation, got ${lookup.state}`);
    expect(lookup.messages).toHaveLength(1);
    return lookup.messages[0]!;
  }

  it('end to end: a Standard burn is not seen until mined, then pending, then attested by the local attester', async () => {
    const maxFee = maxFeeFor(250_000_000n, await client.fees(standIn.localDomain, SOLANA_CCTP_DOMAIN), 'standard');
    await approve(250_000_000n);
    await chain.setAutomine(false);
    const hash = await sendApprovedBurn(250_000_000n, 'standard', maxFee);
    expect(await client.messages(standIn.localDomain, hash)).toEqual({ state: 'not-seen' });
    await chain.mine(1);
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');

    expect(await client.messages(standIn.localDomain, hash)).toEqual({ state: 'pending', delayReason: null });
    const { message, attestation, nonce } = await attestedNow(hash);

    const header = decodeMessageV2(message);
    const body = decodeBurnMessageV2(header.messageBody);
    expect(header).toMatchObject({
      sourceDomain: 0,
      destinationDomain: SOLANA_CCTP_DOMAIN,
      nonce,
      minFinalityThreshold: 2000,
      finalityThresholdExecuted: 2000,
    });
    expect(nonce).not.toMatch(/^0x0+$/);
    expect(body).toMatchObject({
      burnToken: addressToBytes32(usdc),
      mintRecipient: treasuryTokenAccount,
      amount: 250_000_000n,
      messageSender: addressToBytes32(chain.account(depositor).address),
      maxFee: 0n,
      feeExecuted: 0n,
      expirationBlock: solanaSlot + EXPIRATION_BLOCKS,
    });
    expect(attestation.length).toBe(2 + 65 * 2);
    expect(await recoverAddress({ hash: keccak256(message), signature: attestation })).toBe(LOCAL_ATTESTER_ADDRESS);
  });

  it('a Fast burn with maxFee from the fees endpoint executes at 1000 for at most that fee', async () => {
    const fees = await client.fees(standIn.localDomain, SOLANA_CCTP_DOMAIN);
    const maxFee = maxFeeFor(100_000_000n, fees, 'fast');
    expect(maxFee).toBe(10_000n);
    const hash = await sendBurn(100_000_000n, 'fast', maxFee);
    await chain.publicClient.waitForTransactionReceipt({ hash });
    expect((await client.messages(standIn.localDomain, hash)).state).toBe('pending');
    const header = decodeMessageV2((await attestedNow(hash)).message);
    expect(header.finalityThresholdExecuted).toBe(1000);
    expect(decodeBurnMessageV2(header.messageBody).feeExecuted).toBe(10_000n);
  });

  it('an unknown transaction and a wrong domain are not seen', async () => {
    expect(await client.messages(standIn.localDomain, keccak256(toHex('never sent')))).toEqual({ state: 'not-seen' });
    const hash = await sendBurn(1_000_000n, 'standard', 0n);
    await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(await client.messages(3, hash)).toEqual({ state: 'not-seen' });
  });

  it('re-attests an expired message with a new expirationBlock and a new signature', async () => {
    const hash = await sendBurn(5_000_000n, 'standard', 0n);
    await chain.publicClient.waitForTransactionReceipt({ hash });
    await client.messages(standIn.localDomain, hash);
    server.expireNext();
    const expired = await attestedNow(hash);
    expect(decodeBurnMessageV2(decodeMessageV2(expired.message).messageBody).expirationBlock).toBe(solanaSlot);

    solanaSlot += 50n;
    await client.reattest(expired.nonce);
    const fresh = await attestedNow(hash);
    const freshHeader = decodeMessageV2(fresh.message);
    expect(fresh.nonce).toBe(expired.nonce);
    expect(decodeBurnMessageV2(freshHeader.messageBody).expirationBlock).toBe(solanaSlot + EXPIRATION_BLOCKS);
    expect(fresh.attestation).not.toBe(expired.attestation);
    expect(await recoverAddress({ hash: keccak256(fresh.message), signature: fresh.attestation })).toBe(LOCAL_ATTESTER_ADDRESS);
    await expect(client.reattest(keccak256(toHex('no such nonce')))).rejects.toMatchObject({
      kind: 'refused',
      status: 404,
      retryable: false,
    });
  });

  it('turns 5xx, 429, slow answers and unexpected bodies into errors the caller can classify, and then works again', async () => {
    const hash = keccak256(toHex('any'));
    const failure = async () =>
      client.messages(standIn.localDomain, hash).then(
        () => undefined,
        (error: unknown) => error,
      );

    server.failNext(1, 503);
    const unavailable = await failure();
    expect(unavailable).toBeInstanceOf(AttestationApiError);
    expect(unavailable).toMatchObject({ kind: 'unavailable', status: 503, retryable: true, endpoint: 'GET /v2/messages' });

    server.failNext(1, 429);
    expect(await failure()).toMatchObject({ kind: 'unavailable', status: 429 });

    server.failNext(1, 400);
    expect(await failure()).toMatchObject({ kind: 'refused', status: 400, retryable: false });

    // A 200 that is not the published shape: the injected fault's error body.
    server.failNext(1, 200);
    expect(await failure()).toMatchObject({ kind: 'malformed', retryable: true });

    server.delayNext(1, 5_000);
    const slow = await failure();
    expect(slow).toMatchObject({ kind: 'unavailable' });
    expect((slow as Error).message).toMatch(/no answer within 2000 ms/);

    server.delayNext(1, 5_000, { afterHeaders: true });
    expect(await failure()).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/no answer within 2000 ms/) });

    expect(await client.messages(standIn.localDomain, hash)).toEqual({ state: 'not-seen' });
  });

  it('refuses a complete answer without a signature, or carrying a V1 message, as malformed', async () => {
    const hash = await sendBurn(2_000_000n, 'standard', 0n);
    await chain.publicClient.waitForTransactionReceipt({ hash });
    await client.messages(standIn.localDomain, hash);
    const good = await attestedNow(hash);
    const complete = { message: good.message, eventNonce: good.nonce, attestation: good.attestation, cctpVersion: 2, status: 'complete' };
    const v1Message = `0x00000000${good.message.slice(10)}` as const;
    for (const [entry, reason] of [
      [{ ...complete, attestation: 'PENDING' }, /without message or attestation bytes/],
      [{ ...complete, message: v1Message }, /version 0, not CCTP V2/],
      [{ ...complete, status: undefined }, /at messages\.0\.status/],
    ] as const) {
      server.failNext(1, 200, { messages: [entry] });
      await expect(client.messages(standIn.localDomain, hash)).rejects.toMatchObject({
        kind: 'malformed',
        message: expect.stringMatching(reason),
      });
    }
  });

  it('refuses a malformed request before sending it', async () => {
    await expect(client.messages(standIn.localDomain, '0x1234')).rejects.toMatchObject({ kind: 'refused' });
    await expect(client.reattest('0x01')).rejects.toMatchObject({ kind: 'refused' });
    await expect(client.fees(-1, 5)).rejects.toMatchObject({ kind: 'refused' });
  });

  it('leaves a burn whose maxFee is below the Standard fee pending with insufficient_fee', async () => {
    const strict = await startAttestationServer({
      publicClient: chain.publicClient,
      messageTransmitter: standIn.messageTransmitter,
      sourceDomain: standIn.localDomain,
      fees: [{ finalityThreshold: 2000, minimumFee: 1 }],
    });
    try {
      const hash = await sendBurn(10_000_000n, 'standard', 0n);
      await chain.publicClient.waitForTransactionReceipt({ hash });
      expect(await createAttestationClient({ baseUrl: strict.url }).messages(standIn.localDomain, hash)).toEqual({
        state: 'pending',
        delayReason: 'insufficient_fee',
      });
    } finally {
      await strict.stop();
    }
  });
});
