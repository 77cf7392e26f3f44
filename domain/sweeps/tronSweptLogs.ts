// The Swept events of a landed Tron sweepMany, as java-tron's TransactionInfo lists them (`log` of
// gettransactioninfobyid and gettransactioninfobyblocknum): the emitting contract as 20 bytes of hex without Tron's 41
// prefix, topics and data as hex without 0x. The TVM's event layout is the EVM's, so the factory's ABI decodes them;
// addresses come out as 0x hex, the form sweptAmounts compares. An HD address's TRC-20 transfer is read from the
// token's Transfer events in the same `log`, decoded here too.
import { decodeEventLog, erc20Abi, toEventSelector, type Hex } from 'viem';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import type { TokenTransferLog } from './evmHdSweep';
import type { SweptLog } from './evmSweepPlan';

export interface TronLog {
  address: string;
  topics: string[];
  data: string;
}

const SWEPT_TOPIC = toEventSelector('Swept(bytes32,address,address,uint256)').slice(2);
const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)').slice(2);
const WORD = /^[0-9a-fA-F]{64}$/;
const TVM_ADDRESS = /^(41)?([0-9a-fA-F]{40})$/;

/**
 * The transaction's Swept events, numbered from `firstLogIndex`: the index of its first log in its block, as the
 * JSON-RPC the indexer reads numbers a block's logs. A log of another shape (another event, or the same signature
 * indexed otherwise) is not one, and keeps its place in the numbering.
 */
export function tronSweptLogs(logs: readonly TronLog[], firstLogIndex: number): SweptLog[] {
  return eventLogs(logs, firstLogIndex, { topic: SWEPT_TOPIC, topics: 4 }, (emitter, log, logIndex) => {
    const { args } = decodeEventLog({ abi: depositFactory.abi, eventName: 'Swept', ...encoded(log) });
    return { emitter, forwarder: args.forwarder.toLowerCase(), token: args.token.toLowerCase(), amount: args.amount, logIndex };
  });
}

/** The transaction's TRC-20 Transfer events (from, to and value indexed as the EIP-20 ABI has them), numbered as tronSweptLogs numbers. */
export function tronTransferLogs(logs: readonly TronLog[], firstLogIndex: number): TokenTransferLog[] {
  return eventLogs(logs, firstLogIndex, { topic: TRANSFER_TOPIC, topics: 3 }, (emitter, log, logIndex) => {
    const { args } = decodeEventLog({ abi: erc20Abi, eventName: 'Transfer', ...encoded(log) });
    return { emitter, from: args.from.toLowerCase(), to: args.to.toLowerCase(), value: args.value, logIndex };
  });
}

const encoded = (log: TronLog) => ({
  topics: log.topics.map((topic) => `0x${topic}` as Hex) as [Hex, ...Hex[]],
  data: `0x${log.data}` as Hex,
});

/** The logs of one event (its selector first of `topics` topics, one data word), decoded by `decode` with the emitter as 0x hex. */
function eventLogs<T>(
  logs: readonly TronLog[],
  firstLogIndex: number,
  event: { topic: string; topics: number },
  decode: (emitter: string, log: TronLog, logIndex: number) => T,
): T[] {
  const decoded: T[] = [];
  for (const [position, log] of logs.entries()) {
    const emitter = TVM_ADDRESS.exec(log.address)?.[2];
    if (
      emitter === undefined ||
      log.topics.length !== event.topics ||
      log.topics[0]?.toLowerCase() !== event.topic ||
      !WORD.test(log.data) ||
      !log.topics.every((t) => WORD.test(t))
    )
      continue;
    decoded.push(decode(`0x${emitter.toLowerCase()}`, log, firstLogIndex + position));
  }
  return decoded;
}
