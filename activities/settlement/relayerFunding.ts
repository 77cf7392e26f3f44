// An operator's top-up of a relayer's gas coin, recorded in the ledger from the chain's own record of the transaction
// (domain/ledger/relayerFunding.ts decides whether it is one and by how much), so that reconciliation stops reporting
// it as a difference of relayer:<chain>: on an EVM chain through the node of the mode's network, its depth counted as
// reconciliation reads it (evmChainHoldings.ts); on Tron through java-tron's HTTP API, once solidified.
import { TransactionNotFoundError, TransactionReceiptNotFoundError, type Hash, type PublicClient } from 'viem';
import type { Queryable } from '../../db/client';
import { ledgerGroupExists, postLedger } from '../../db/repositories/ledger';
import { recordedRelayerAddress } from '../../db/repositories/reconciliation';
import { CHAIN_FACTS, type Chain } from '../../domain/chains/chains';
import type { LedgerPosting } from '../../domain/ledger/ledger';
import { relayerFundingOf, type LandedPayment } from '../../domain/ledger/relayerFunding';
import type { Mode } from '../../domain/wire/session';
import type { TronWalletApi } from '../http/tronWalletApi';

/** A refusal to record: the ledger is left as it was. */
export class RelayerFundingRefused extends Error {
  override name = 'RelayerFundingRefused';
}

/** One chain of one mode's network, read for the transactions an operator names. */
export interface PaymentSource {
  chain: Chain;
  /** How operators know the network: "base testnet". */
  name: string;
  /** What the chain shows of `txHash`; refuses one it does not hold. */
  landed(txHash: string): Promise<LandedPayment>;
}

const notFound = (name: string, txHash: string) => new RelayerFundingRefused(`transaction ${txHash} is not on ${name}`);

/**
 * An EVM chain through one node. `chainId` is what that node must serve (the registry's), so that a top-up on
 * another network is never recorded in this mode's books.
 */
export function evmPaymentSource(options: {
  chain: Chain;
  name: string;
  client: PublicClient;
  chainId: number | undefined;
  confirmations: number;
}): PaymentSource {
  const { chain, name, client, confirmations } = options;
  return {
    chain,
    name,
    async landed(txHash) {
      const served = await client.getChainId();
      if (options.chainId !== undefined && served !== options.chainId)
        throw new RelayerFundingRefused(`the RPC URL for ${name} serves chain ${served}, not ${options.chainId}`);
      const hash = txHash as Hash;
      const tx = await client.getTransaction({ hash }).catch((error: unknown) => {
        throw error instanceof TransactionNotFoundError ? notFound(name, txHash) : error;
      });
      // A pending transaction has no receipt: asked after the transaction, so an unknown one is not taken for one.
      const [receipt, head] = await Promise.all([
        client.getTransactionReceipt({ hash }).catch((error: unknown) => {
          throw error instanceof TransactionReceiptNotFoundError
            ? new RelayerFundingRefused(
                `transaction ${txHash} is not in a block on ${name} yet: record it once it has ${confirmations} confirmations`,
              )
            : error;
        }),
        client.getBlockNumber({ cacheTime: 0 }),
      ]);
      return {
        chain,
        txHash,
        succeeded: receipt.status === 'success',
        finality: { depth: head - receipt.blockNumber + 1n, required: confirmations },
        from: tx.from,
        ...(tx.to ? { to: tx.to } : {}),
        value: tx.value,
      };
    },
  };
}

/** Tron through java-tron's HTTP API: the solidified view, or the latest to tell a pending transaction from none. */
export function tronPaymentSource(name: string, api: Pick<TronWalletApi, 'transaction' | 'transactionInfo'>): PaymentSource {
  return {
    chain: 'tron',
    name,
    async landed(txHash) {
      let solidified = true;
      let [info, tx] = await Promise.all([api.transactionInfo('solidified', txHash), api.transaction('solidified', txHash)]);
      if (!info || !tx) {
        solidified = false;
        [info, tx] = await Promise.all([api.transactionInfo('latest', txHash), api.transaction('latest', txHash)]);
      }
      if (!info || !tx) throw notFound(name, txHash);
      return {
        chain: 'tron',
        txHash,
        succeeded: !info.failed && tx.contractRet === 'SUCCESS',
        finality: { solidified },
        contractType: tx.contractType,
        from: tx.owner,
        ...(tx.to ? { to: tx.to } : {}),
        value: tx.amount,
      };
    },
  };
}

const TX_HASH = { evm: /^0x[0-9a-fA-F]{64}$/, tron: /^[0-9a-fA-F]{64}$/ } as const;

export interface RecordedRelayerFunding {
  posting: LedgerPosting;
  relayer: string;
  /** It was recorded before: nothing changed. */
  alreadyRecorded: boolean;
}

/** Records an operator's top-up of the mode's relayer on `source`'s chain; recording it again changes nothing. */
export async function recordRelayerFunding(
  sql: Queryable,
  mode: Mode,
  source: PaymentSource,
  txHash: string,
): Promise<RecordedRelayerFunding> {
  const family = CHAIN_FACTS[source.chain].family;
  const format = family === 'evm' ? TX_HASH.evm : family === 'tron' ? TX_HASH.tron : undefined;
  if (!format?.test(txHash))
    throw new RelayerFundingRefused(
      `"${txHash}" is not a ${source.chain} transaction hash (${family === 'evm' ? '0x and 64 hex digits' : '64 hex digits'})`,
    );
  const relayer = await recordedRelayerAddress(sql, mode, source.chain);
  if (!relayer)
    throw new RelayerFundingRefused(
      `the ${mode} relayer's address on ${source.chain} is not recorded yet: the signer records it at its first sweep run there (checkout-admin sweep now --chain ${source.chain} --token <USDC|USDT> --mode ${mode} starts one); record the top-up after that`,
    );
  const decision = relayerFundingOf(mode, relayer, await source.landed(txHash));
  if ('refused' in decision) throw new RelayerFundingRefused(decision.refused);
  const alreadyRecorded = await ledgerGroupExists(sql, decision.posting.groupId);
  if (!alreadyRecorded) await postLedger(sql, decision.posting);
  return { posting: decision.posting, relayer, alreadyRecorded };
}
