// One CCTP V2 route, (source chain, mode) → the Solana treasury, on the signer: it alone holds the relayer key that
// burns from the DepositCollector and the treasury key that pays for the receive
// (docs/settlement.md#r4-keys-in-the-signer-alone). Every function is one resumable pass over the transfers row and
// its chain intents (burn:<id>, recv:<nonce>): a pass killed anywhere is simply run again, and what is on chain or in
// the row decides what the next pass does.
import { ApplicationFailure } from '@temporalio/activity';
import { getAddressEncoder, type Signature } from '@solana/kit';
import { erc20Abi, hexToBytes, toHex, type Address, type Hex, type PublicClient } from 'viem';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import { insertChainIntent } from '../../db/repositories/chainIntents';
import { postLedger } from '../../db/repositories/ledger';
import {
  findTransfer,
  insertTransfer,
  setTransferAttested,
  setTransferBurned,
  setTransferFailed,
  setTransferReattesting,
  setTransferReceived,
  setTransferReceiveIntent,
  transferInFlight,
  type Transfer,
} from '../../db/repositories/transfers';
import { CCTP_SOURCE_DOMAINS, SOLANA_CCTP_DOMAIN, type CctpSourceChain } from '../../domain/cctp/domains';
import type { CctpSpeed } from '../../domain/cctp/finality';
import { judgeBurnFee } from '../../domain/cctp/maxFee';
import {
  attestationExpired,
  burnIntentId,
  creditedAmount,
  judgeTransferStart,
  readAttestedMessage,
  receiveIntentId,
  transferIdFor,
  TransferMessageError,
  type AttestedTransfer,
} from '../../domain/cctp/transfer';
import { relayerGasPaid, transferBurned, transferChainCosts, transferReceived } from '../../domain/ledger/ledger';
import type { Mode } from '../../domain/wire/session';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { AttestationApiError, type AttestationClient } from '../cctp/attestationClient';
import { setComputeUnitLimitInstruction } from '../cctp/computeUnitLimit';
import { feeRecipientTokenAccount, receiveMessageInstruction } from '../cctp/receiveMessageInstruction';
import { isNonceUsed } from '../cctp/usedNonce';
import type { EvmChainWriter } from '../chainWrites/evmChainWriter';
import { refuseAlteredCall } from '../chainWrites/intentCallCheck';
import { cctpBurnCall, evmCallDifference } from '../../domain/chainWrites/intentCall';
import { createSolanaChainWriter, type SignIntent } from '../chainWrites/solanaChainWriter';
import { rpcDeadline } from '../../activities/http/rpcDeadline';
import { associatedUsdcAccount } from '../../domain/addresses/solanaTokenAccount';
import { signTreasuryTransaction } from '../payouts/payoutTransaction';
import type { TreasuryPayoutDeps } from '../payouts/treasuryPayout';
import { gasPaidWei } from '../../domain/chains/gasPaid';

/** What MessageTransmitterV2 receive_message needs on mainnet (~220k), with room. */
export const RECEIVE_COMPUTE_UNITS = 300_000;

export interface CctpRouteDeps {
  mode: Mode;
  chain: CctpSourceChain;
  /** The source chain's client; the relayer writes through `writer`. */
  client: PublicClient;
  writer: EvmChainWriter;
  usdc: Address;
  collector: Address;
  /** Fast falls back to Standard when its fee quote is above `maxFeeBps`. */
  speed: CctpSpeed;
  /** CCTP_MAX_FEE_BPS: the most of a burn the attestation service's fee quote may take. */
  maxFeeBps: number;
  /** USDC base units the collector must hold before a transfer starts. */
  minimum: bigint;
  /** The chain's required confirmations: only what the collector held that deep is burned. */
  confirmations: number;
  attestation: AttestationClient;
  /** The Solana treasury: pays the receive's fee and owns the USDC account the mint credits. */
  treasury: TreasuryPayoutDeps;
}

/** in_flight: this chain's transfer that has not landed yet, whose workflow the caller makes sure of. */
export type StartAnswer =
  | { status: 'started' | 'in_flight'; transferId: string }
  /** feeAboveCeiling: the quote would have the burn give more than CCTP_MAX_FEE_BPS, an operator's concern. */
  | { status: 'idle'; reason: string; feeAboveCeiling?: true };
export type BurnAnswer =
  { status: 'pending'; deferred?: string } | { status: 'burned'; txHash: string } | { status: 'failed'; reason: string };
export type AttestationAnswer = { status: 'pending'; reason: string } | { status: 'attested'; nonce: string };
/** Our landed receive: `usdc` is what the treasury's USDC account gained, `costs` what the treasury paid in SOL. */
interface LandedReceive {
  succeeded: boolean;
  usdc: bigint;
  costs: { feeLamports: bigint; rentLamports: bigint };
}

export type ReceiveAnswer = { status: 'submitted' } | { status: 'reattesting' } | { status: 'received'; received: string };

const refuse = (message: string) => ApplicationFailure.nonRetryable(message, WorkflowFailure.TransferRefused);

export function createCctpRoute(deps: CctpRouteDeps) {
  const { sql } = deps.treasury;
  const solanaWriter = createSolanaChainWriter(deps.treasury);
  const sourceDomain = CCTP_SOURCE_DOMAINS[deps.chain];
  const treasuryUsdc = () => associatedUsdcAccount(deps.treasury.treasury.address, deps.treasury.usdcMint);
  const mintRecipient = async (): Promise<Hex> => toHex(getAddressEncoder().encode(await treasuryUsdc()) as Uint8Array);

  async function load(transferId: string): Promise<Transfer> {
    const transfer = await findTransfer(sql, transferId);
    if (!transfer || transfer.mode !== deps.mode || transfer.sourceChain !== deps.chain)
      throw refuse(`no ${deps.mode} transfer ${transferId} from ${deps.chain}`);
    return transfer;
  }

  /**
   * Writes the transfer and its burn intent when the collector holds enough and nothing is in flight, or returns
   * what this run started before. The collector must mint to this treasury: a burn to any other account would
   * leave the ledger's treasury for good.
   */
  async function start(runKey: string): Promise<StartAnswer> {
    const transferId = transferIdFor(runKey);
    if (await findTransfer(sql, transferId)) return { status: 'started', transferId };
    const inFlight = await transferInFlight(sql, deps.mode, deps.chain);
    if (inFlight) return { status: 'in_flight', transferId: inFlight.id };
    const configured = await deps.client.readContract({
      address: deps.collector,
      abi: depositCollector.abi,
      functionName: 'mintRecipient',
    });
    if (configured.toLowerCase() !== (await mintRecipient()).toLowerCase()) {
      throw refuse(`the ${deps.chain} collector mints to ${configured}, not this treasury's USDC account ${await treasuryUsdc()}`);
    }
    // A sweep a reorganisation can still drop is not burned yet: its burn would revert, and the burn's ledger
    // posting would come before the sweep's.
    const head = await deps.client.getBlockNumber({ cacheTime: 0 });
    const settledBlock = head >= BigInt(deps.confirmations - 1) ? head - BigInt(deps.confirmations - 1) : 0n;
    const collectorBalance = await deps.client.readContract({
      address: deps.usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [deps.collector],
      blockNumber: settledBlock,
    });
    const verdict = judgeTransferStart({ chain: deps.chain, collectorBalance, minimum: deps.minimum });
    if (!verdict.start) return { status: 'idle', reason: verdict.reason };
    const quotes = await deps.attestation.fees(sourceDomain, SOLANA_CCTP_DOMAIN);
    const fee = judgeBurnFee(verdict.amount, quotes, deps.speed, deps.maxFeeBps);
    if (!fee.burn) return { status: 'idle', reason: fee.reason, feeAboveCeiling: true };
    const { maxFee, speed } = fee;
    const intentId = burnIntentId(transferId);
    await deps.writer.prepare(
      intentId,
      cctpBurnCall({ collector: deps.collector, usdc: deps.usdc, amount: verdict.amount, maxFee, speed }),
    );
    await insertTransfer(sql, {
      id: transferId,
      mode: deps.mode,
      sourceChain: deps.chain,
      amount: verdict.amount,
      maxFee,
      speed,
      burnIntentId: intentId,
    });
    return { status: 'started', transferId };
  }

  /** One pass of the burn; once it is final, the USDC is in flight and the relayer's gas spent, in the ledger. */
  async function burn(transferId: string): Promise<BurnAnswer> {
    const transfer = await load(transferId);
    if (transfer.stage === 'failed') return { status: 'failed', reason: transfer.failure ?? 'the burn failed' };
    if (transfer.stage !== 'burning') return { status: 'burned', txHash: transfer.burnTxHash ?? '' };
    const burnCall = cctpBurnCall({ collector: deps.collector, usdc: deps.usdc, ...transfer });
    await refuseAlteredCall(sql, transfer.burnIntentId, { kind: 'cctp-burn', chain: deps.chain, mode: deps.mode }, ({ call }) =>
      evmCallDifference(call, burnCall),
    );
    const { intent, deferred } = await deps.writer.advance(transfer.burnIntentId);
    if (intent.status === 'failed' || intent.status === 'finalized') {
      const hash = intent.signature as Hex;
      const receipt = await deps.client.getTransactionReceipt({ hash });
      const gasWei = gasPaidWei(receipt);
      await sql.begin(async (tx) => {
        if (intent.status === 'failed') await setTransferFailed(tx, transferId, `the burn ${hash} reverted`);
        else {
          await setTransferBurned(tx, transferId, hash);
          await postLedger(tx, transferBurned(transferId, deps.mode, deps.chain, transfer.amount));
        }
        const gas = relayerGasPaid(transfer.burnIntentId, deps.mode, deps.chain, gasWei);
        if (gas) await postLedger(tx, gas);
      });
      return intent.status === 'failed' ? { status: 'failed', reason: `the burn ${hash} reverted` } : { status: 'burned', txHash: hash };
    }
    return deferred === undefined ? { status: 'pending' } : { status: 'pending', deferred };
  }

  /**
   * One look at the attestation service. Not seen and pending are answers to wait on; an unavailable or
   * malformed answer is thrown for the activity's retry with backoff; a refusal stops the transfer for an operator.
   */
  async function attestation(transferId: string): Promise<AttestationAnswer> {
    const transfer = await load(transferId);
    if (transfer.stage === 'attested' || transfer.stage === 'received') return { status: 'attested', nonce: transfer.nonce ?? '' };
    if (transfer.stage !== 'burned' || !transfer.burnTxHash) throw refuse(`transfer ${transferId} is ${transfer.stage}: nothing to attest`);
    let lookup;
    try {
      lookup = await deps.attestation.messages(sourceDomain, transfer.burnTxHash as Hex);
    } catch (error) {
      if (error instanceof AttestationApiError && !error.retryable) throw refuse(error.message);
      throw error;
    }
    if (lookup.state === 'not-seen') return { status: 'pending', reason: 'not seen yet' };
    if (lookup.state === 'pending') return { status: 'pending', reason: lookup.delayReason ?? 'pending confirmations' };
    if (lookup.messages.length !== 1) throw refuse(`the burn ${transfer.burnTxHash} carries ${lookup.messages.length} messages, not one`);
    const [attested] = lookup.messages as [(typeof lookup.messages)[0]];
    const read = checkedMessage(transfer, attested.message, await mintRecipient());
    if (transfer.nonce !== null && transfer.nonce.toLowerCase() !== read.nonce.toLowerCase())
      throw refuse(`the re-attested message has nonce ${read.nonce}, not ${transfer.nonce}`);
    await setTransferAttested(sql, transferId, { nonce: read.nonce, message: attested.message, attestation: attested.attestation });
    return { status: 'attested', nonce: read.nonce };
  }

  function checkedMessage(transfer: Transfer, message: Hex, recipient: Hex): AttestedTransfer {
    try {
      return readAttestedMessage(message, {
        sourceDomain,
        burnToken: deps.usdc,
        messageSender: deps.collector,
        mintRecipient: recipient,
        amount: transfer.amount,
        maxFee: transfer.maxFee,
        speed: transfer.speed,
      });
    } catch (error) {
      if (error instanceof TransferMessageError) throw refuse(error.message);
      throw error;
    }
  }

  const receiveSigner =
    (transfer: Transfer): SignIntent =>
    async (lifetime) => {
      const instruction = await receiveMessageInstruction({
        payer: deps.treasury.treasury,
        message: hexToBytes(transfer.message as Hex),
        attestation: hexToBytes(transfer.attestation as Hex),
        usdcMint: deps.treasury.usdcMint,
        feeRecipientTokenAccount: await feeRecipientTokenAccount(deps.treasury.rpc, deps.treasury.usdcMint),
      });
      return {
        kind: 'signed',
        transaction: await signTreasuryTransaction(deps.treasury.treasury, lifetime, [
          setComputeUnitLimitInstruction(RECEIVE_COMPUTE_UNITS),
          instruction,
        ]),
      };
    };

  /**
   * Our receive as the node records it, undefined before it has landed: whether it succeeded, the treasury USDC
   * account's gain from its token balances, and what it cost the treasury in SOL.
   */
  async function landedReceive(signature: string): Promise<LandedReceive | undefined> {
    const landed = await deps.treasury.rpc
      .getTransaction(signature as Signature, { encoding: 'base64', commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
      .send(rpcDeadline(deps.treasury.rpcTimeoutMs));
    if (!landed?.meta) return undefined;
    const { meta } = landed;
    const owner = deps.treasury.treasury.address;
    const held = (balances: typeof meta.preTokenBalances) =>
      (balances ?? [])
        .filter((b) => b.owner === owner && b.mint === deps.treasury.usdcMint)
        .reduce((sum, b) => sum + BigInt(b.uiTokenAmount.amount), 0n);
    // The treasury signs our receive as its fee payer, the first account: its balance drop is the fee, and the rest
    // the rent of the used_nonce account the receive creates.
    const spent = (meta.preBalances[0] ?? 0n) - (meta.postBalances[0] ?? 0n);
    return {
      succeeded: meta.err === null,
      usdc: held(meta.postTokenBalances) - held(meta.preTokenBalances),
      costs: { feeLamports: meta.fee, rentLamports: spent - meta.fee },
    };
  }

  async function recordReceived(transfer: Transfer, credited: bigint, landed?: LandedReceive): Promise<ReceiveAnswer> {
    const costs = landed && transferChainCosts(transfer.id, deps.mode, landed.costs);
    await sql.begin(async (tx) => {
      await setTransferReceived(tx, transfer.id, credited);
      await postLedger(tx, transferReceived(transfer.id, deps.mode, deps.chain, { burned: transfer.amount, received: credited }));
      if (costs) await postLedger(tx, costs);
    });
    return { status: 'received', received: credited.toString() };
  }

  async function recordOurReceive(transfer: Transfer, attested: AttestedTransfer, signature: string): Promise<ReceiveAnswer> {
    const landed = await landedReceive(signature);
    if (!landed) throw new Error(`the node has no record of landed receive ${signature} yet`);
    return recordReceived(transfer, creditedAmount(attested, landed.usdc), landed);
  }

  /**
   * One pass of the receive on Solana. Our own landed receive is read from its balance deltas; a nonce used by
   * anyone else's receive is taken as credited by the message (the mint is fixed by it); an expired attestation
   * is re-attested before anything is signed. Only then is recv:<nonce> signed and sent.
   */
  async function receive(transferId: string): Promise<ReceiveAnswer> {
    const transfer = await load(transferId);
    if (transfer.stage === 'received') return { status: 'received', received: (transfer.receivedAmount ?? 0n).toString() };
    if (transfer.stage !== 'attested' || !transfer.message || !transfer.nonce)
      throw refuse(`transfer ${transferId} is ${transfer.stage}: nothing to receive`);
    const attested = checkedMessage(transfer, transfer.message as Hex, await mintRecipient());
    const intentId = receiveIntentId(attested.nonce);
    const ours = transfer.receiveIntentId ? (await solanaWriter.observe(intentId)).intent : undefined;
    if (ours && (ours.status === 'confirmed' || ours.status === 'finalized') && ours.signature) {
      return recordOurReceive(transfer, attested, ours.signature);
    }
    if (await isNonceUsed(deps.treasury.rpc, hexToBytes(attested.nonce))) {
      // Our receive may have landed before the writer saw it, or failed behind another party's: either way the
      // treasury paid for it.
      const landed = ours?.signature ? await landedReceive(ours.signature) : undefined;
      return recordReceived(transfer, creditedAmount(attested, landed?.succeeded ? landed.usdc : undefined), landed);
    }
    if (ours?.status === 'failed')
      throw refuse(
        `the receive ${ours.signature ?? intentId} failed on Solana and the nonce is unused: see checkout-admin transfer show ${transferId}`,
      );
    if (!ours || ours.status === 'prepared') {
      const slot = await deps.treasury.rpc.getSlot({ commitment: 'confirmed' }).send(rpcDeadline(deps.treasury.rpcTimeoutMs));
      if (attestationExpired(attested.expirationBlock, slot)) {
        try {
          await deps.attestation.reattest(attested.nonce);
        } catch (error) {
          if (error instanceof AttestationApiError && !error.retryable) throw refuse(error.message);
          throw error;
        }
        await setTransferReattesting(sql, transferId);
        return { status: 'reattesting' };
      }
    }
    if (!ours) {
      await sql.begin(async (tx) => {
        await insertChainIntent(tx, intentId);
        await setTransferReceiveIntent(tx, transferId, intentId);
      });
    }
    const { intent } = await solanaWriter.advance(intentId, receiveSigner(transfer));
    if ((intent.status === 'confirmed' || intent.status === 'finalized') && intent.signature) {
      return recordOurReceive(transfer, attested, intent.signature);
    }
    return { status: 'submitted' };
  }

  return { start, burn, attestation, receive };
}

export type CctpRoute = ReturnType<typeof createCctpRoute>;
