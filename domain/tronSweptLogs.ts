// The Swept events of a landed Tron sweepMany, as java-tron's TransactionInfo lists them (`log` of
// gettransactioninfobyid and gettransactioninfobyblocknum): the emitting contract as 20 bytes of hex without Tron's 41
// prefix, topics and data as hex without 0x. The TVM's event layout is the EVM's, so the factory's ABI decodes them;
// addresses come out as 0x hex, the form sweptAmounts compares.
import { decodeEventLog, toEventSelector, type Hex } from 'viem';
import * as depositFactory from '../contracts/artifacts/depositFactory';
import type { SweptLog } from './evmSweepPlan';

export interface TronLog {
  address: string;
  topics: string[];
  data: string;
}

const SWEPT_TOPIC = toEventSelector('Swept(bytes32,address,address,uint256)').slice(2);
const WORD = /^[0-9a-fA-F]{64}$/;
const TVM_ADDRESS = /^(41)?([0-9a-fA-F]{40})$/;

/**
 * The transaction's Swept events, numbered from `firstLogIndex`: the index of its first log in its block, as the
 * JSON-RPC the indexer reads numbers a block's logs. A log of another shape (another event, or the same signature
 * indexed otherwise) is not one, and keeps its place in the numbering.
 */
export function tronSweptLogs(logs: readonly TronLog[], firstLogIndex: number): SweptLog[] {
  const swept: SweptLog[] = [];
  for (const [position, log] of logs.entries()) {
    const emitter = TVM_ADDRESS.exec(log.address)?.[2];
    if (emitter === undefined || log.topics.length !== 4 || log.topics[0]?.toLowerCase() !== SWEPT_TOPIC || !WORD.test(log.data) || !log.topics.every((topic) => WORD.test(topic))) continue;
    const { args } = decodeEventLog({ abi: depositFactory.abi, eventName: 'Swept', topics: log.topics.map((topic) => `0x${topic}` as Hex) as [Hex, ...Hex[]], data: `0x${log.data}` });
    swept.push({ emitter: `0x${emitter.toLowerCase()}`, forwarder: args.forwarder.toLowerCase(), token: args.token.toLowerCase(), amount: args.amount, logIndex: firstLogIndex + position });
  }
  return swept;
}
