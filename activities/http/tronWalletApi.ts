// A thin client of java-tron's HTTP API: the calls the Tron relayer's writes and sweeps need. Shapes as the node
// publishes them (developers.tron.network and tronprotocol/documentation-en: getnowblock, getblockbylimitnext,
// broadcasthex, gettransactioninfobyid, gettransactioninfobyblocknum, gettransactionbyid, triggerconstantcontract
// (balanceOf, a factory's addressOf, a sweep's simulation and its energy), getaccount, getaccountresource,
// getchainparameters and their /walletsolidity twins; recordings in
// test/fixtures/tron/). The JSON-RPC endpoint the indexer reads is not this API. A full node serves /wallet/* and
// /walletsolidity/* on separate ports (8090 and 8091 by default); TronGrid serves both on one host.
import { z } from 'zod';
import { decodeAbiParameters, type Hex } from 'viem';
import { tronAddressFromHex, tronAddressToEvmHex, tronAddressToHex } from '../../domain/addresses/tron';
import type { TronBlock, TronBroadcastAnswer, TronTransactionInfo } from '../../domain/chainWrites/tronChainIntent';
import type { TronChainPrices } from '../../domain/chains/tronEnergy';
import type { TronLog } from '../../domain/sweeps/tronSweptLogs';
import { fetchJson, parseAnswer, RemoteApiError, type RemoteApiErrorKind } from './jsonApi';

export const DEFAULT_TRON_API_TIMEOUT_MS = 10_000;
const CONSTANT_ENDPOINT = '/wallet/triggerconstantcontract';

export interface TronWalletApiOptions {
  /** Where /wallet/* is served, e.g. https://api.trongrid.io or http://node:8090. */
  fullNodeUrl: string;
  /** Where /walletsolidity/* is served; the full node's URL unless given (TronGrid serves both). */
  solidityUrl?: string;
  timeoutMs?: number;
}

export type TronApiErrorKind = RemoteApiErrorKind;

export class TronApiError extends RemoteApiError {
  override name = 'TronApiError';
  constructor(kind: TronApiErrorKind, endpoint: string, detail: string) {
    super(kind, endpoint, `Tron node, ${endpoint}: ${detail}`);
  }
}

export interface TronBlockHead {
  blockId: string;
  number: bigint;
  timestamp: Date;
}

const int = z.union([z.number().int(), z.string().regex(/^[0-9]+$/)]).transform((value) => BigInt(value));

const blockSchema = z.object({
  blockID: z.string().regex(/^[0-9a-fA-F]{64}$/),
  block_header: z.object({ raw_data: z.object({ number: int, timestamp: int }).loose() }).loose(),
});

/** getblockbylimitnext: `{}` for a range the node does not hold; its transactions' txIDs, none for an empty block. */
const blocksSchema = z
  .object({
    block: z
      .array(
        z
          .object({
            blockID: z.string().regex(/^[0-9a-fA-F]{64}$/),
            block_header: z.object({ raw_data: z.object({ number: int, timestamp: int, parentHash: z.string() }).loose() }).loose(),
            transactions: z.array(z.object({ txID: z.string() }).loose()).optional(),
          })
          .loose(),
      )
      .optional(),
  })
  .loose();

const infoSchema = z
  .object({
    id: z.string(),
    blockNumber: int,
    fee: int.optional(),
    receipt: z
      .object({
        result: z.string().optional(),
        energy_usage: int.optional(),
        energy_fee: int.optional(),
        origin_energy_usage: int.optional(),
        energy_usage_total: int.optional(),
        net_usage: int.optional(),
        net_fee: int.optional(),
      })
      .loose()
      .optional(),
    result: z.string().optional(),
    resMessage: z.string().optional(),
  })
  .loose();

/** A Transaction as gettransactionbyid answers it with visible=false: addresses in 41… hex, one contract. */
const transactionSchema = z
  .object({
    txID: z.string(),
    ret: z.array(z.object({ contractRet: z.string().optional() }).loose()).optional(),
    raw_data: z
      .object({
        contract: z
          .array(
            z
              .object({
                type: z.string(),
                parameter: z
                  .object({
                    value: z.object({ owner_address: z.string(), to_address: z.string().optional(), amount: int.optional() }).loose(),
                  })
                  .loose(),
              })
              .loose(),
          )
          .min(1),
      })
      .loose(),
  })
  .loose();

/** A landed transaction's one contract: who sent it and, for a TransferContract, the TRX it paid whom. */
export interface TronTransaction {
  /** Transaction.Contract.ContractType's name: TransferContract, TriggerSmartContract, … */
  contractType: string;
  /** The block's verdict (SUCCESS, REVERT, …); none when the node leaves it out. */
  contractRet: string | undefined;
  owner: string;
  to: string | undefined;
  /** Sun. */
  amount: bigint;
}

const logSchema = z.object({ address: z.string(), topics: z.array(z.string()).default([]), data: z.string().default('') }).loose();

const blockInfosSchema = z.array(z.object({ id: z.string(), log: z.array(logSchema).optional() }).loose());

const constantSchema = z
  .object({
    result: z.object({ result: z.boolean().optional(), code: z.string().optional(), message: z.string().optional() }).loose(),
    constant_result: z.array(z.string()).optional(),
    transaction: z.unknown().optional(),
  })
  .loose();

/** The `transaction` a constant call answers, whose `ret[0].ret` is FAILED when the call reverted or threw. */
const constantTransactionSchema = z
  .object({ ret: z.array(z.object({ ret: z.string().optional(), contractRet: z.string().optional() }).loose()).optional() })
  .loose();

/** Error(string)'s selector: a `require(…, "reason")` or `revert("reason")`. */
const ERROR_STRING = '08c379a0';

/**
 * An Account (Tron.proto): `{}` for an address the chain has never seen, and no `balance` when it holds no TRX.
 * `frozenV2` lists what it staked (Stake 2.0) per resource, the bandwidth entry without `type` (BANDWIDTH is 0).
 */
const accountSchema = z
  .object({
    balance: int.optional(),
    frozenV2: z.array(z.object({ type: z.string().optional(), amount: int.optional() }).loose()).optional(),
  })
  .loose();

/** AccountResourceMessage: every field left out when zero, `{}` for an unknown account. */
const accountResourceSchema = z
  .object({
    EnergyLimit: int.optional(),
    EnergyUsed: int.optional(),
    freeNetLimit: int.optional(),
    freeNetUsed: int.optional(),
    NetLimit: int.optional(),
    NetUsed: int.optional(),
  })
  .loose();

const left = (limit: bigint | undefined, used: bigint | undefined) => ((limit ?? 0n) > (used ?? 0n) ? (limit ?? 0n) - (used ?? 0n) : 0n);

/** An account's TRX and resources as accountResources reads them; sun, energy, bytes. */
export interface TronAccountResources {
  trxBalanceSun: bigint;
  stakedForEnergySun: bigint;
  energyLimit: bigint;
  energyUsed: bigint;
  bandwidthAvailable: bigint;
}

/** ChainParameters: a zero-valued parameter has no `value`. */
const chainParametersSchema = z.object({
  chainParameter: z.array(z.object({ key: z.string(), value: int.optional() }).loose()),
});

const broadcastSchema = z
  .object({ result: z.boolean().optional(), code: z.string().optional(), message: z.string().optional(), txid: z.string().optional() })
  .loose();

/** resMessage is hex of UTF-8 bytes with visible=false (the default). */
function decodeHexText(hex: string | undefined): string | undefined {
  if (hex === undefined || hex === '') return undefined;
  return /^([0-9a-fA-F]{2})+$/.test(hex) ? Buffer.from(hex, 'hex').toString('utf8') : hex;
}

/** Revert data as a reason: Error(string)'s text, else the data as hex (a custom error's selector and arguments). */
function revertData(hex: string): string | undefined {
  if (hex === '') return undefined;
  if (hex.toLowerCase().startsWith(ERROR_STRING)) {
    try {
      const [text] = decodeAbiParameters([{ type: 'string' }], `0x${hex.slice(8)}`);
      return text;
    } catch {
      return `0x${hex}`;
    }
  }
  return `0x${hex}`;
}

/**
 * Why a constant call that ran reverted, or undefined when it succeeded. java-tron (Wallet.triggerConstantContract)
 * answers a call that ran with `result.result` true whatever it did; a revert sets `result.message` (hex of "REVERT
 * opcode executed") and marks `transaction.ret[0].ret` FAILED, and leaves the revert data in `constant_result[0]`.
 */
function constantCallRevert(answer: z.infer<typeof constantSchema>): string | undefined {
  const transaction = constantTransactionSchema.safeParse(answer.transaction);
  const [ret] = (transaction.success ? transaction.data.ret : undefined) ?? [];
  const message = decodeHexText(answer.result.message);
  const failed = ret?.ret === 'FAILED' || (ret?.contractRet !== undefined && ret.contractRet !== 'SUCCESS');
  if (message === undefined && !failed) return undefined;
  const data = revertData(answer.constant_result?.[0] ?? '');
  const verdict = message ?? ret?.contractRet ?? 'FAILED';
  return data === undefined ? verdict : `${verdict}: ${data}`;
}

export function createTronWalletApi({ fullNodeUrl, solidityUrl, timeoutMs = DEFAULT_TRON_API_TIMEOUT_MS }: TronWalletApiOptions) {
  const bases = { wallet: new URL(fullNodeUrl), walletsolidity: new URL(solidityUrl ?? fullNodeUrl) };

  const failOn = (endpoint: string) => (kind: TronApiErrorKind, detail: string) => new TronApiError(kind, endpoint, detail);

  async function post(view: keyof typeof bases, method: string, body: object): Promise<unknown> {
    const endpoint = `/${view}/${method}`;
    const answer = await fetchJson(
      new URL(endpoint, bases[view]),
      { method: 'POST', body: JSON.stringify(body) },
      { timeoutMs, fail: failOn(endpoint) },
    );
    // java-tron answers a request it cannot serve with 200 and {"Error": "<exception class> : <message>"}.
    if (answer.body !== null && typeof answer.body === 'object' && 'Error' in answer.body)
      throw new TronApiError('refused', endpoint, 'the node reports an error');
    return answer.body;
  }

  const parse = <T>(endpoint: string, schema: z.ZodType<T>, body: unknown): T => parseAnswer(schema, body, failOn(endpoint));

  /** A constant call of `signature(parameter)` on `contract` as `caller`, as the node answers it. */
  async function constantCall(caller: string, contract: string, signature: string, parameter: string) {
    return parse(
      CONSTANT_ENDPOINT,
      constantSchema,
      await post('wallet', 'triggerconstantcontract', {
        owner_address: tronAddressToHex(caller),
        contract_address: tronAddressToHex(contract),
        function_selector: signature,
        parameter,
        visible: false,
      }),
    );
  }

  /** The one 32-byte word a constant call of `signature` on `contract` returns, as hex without 0x. */
  async function constantWord(caller: string, contract: string, signature: string, parameter: string, what: string): Promise<string> {
    const answer = await constantCall(caller, contract, signature, parameter);
    const [word] = answer.constant_result ?? [];
    if (
      answer.result.result !== true ||
      constantCallRevert(answer) !== undefined ||
      word === undefined ||
      !/^[0-9a-fA-F]{64}$/.test(word)
    ) {
      const name = signature.slice(0, signature.indexOf('('));
      throw new TronApiError(
        'malformed',
        CONSTANT_ENDPOINT,
        `${name} did not return ${what}${answer.result.code ? ` (${answer.result.code})` : ''}`,
      );
    }
    return word;
  }

  return {
    /** The newest solidified block: what the transaction references and what proves an expired one dead. */
    async solidifiedHead(): Promise<TronBlockHead> {
      const block = parse('/walletsolidity/getnowblock', blockSchema, await post('walletsolidity', 'getnowblock', {}));
      return {
        blockId: block.blockID.toLowerCase(),
        number: block.block_header.raw_data.number,
        timestamp: new Date(Number(block.block_header.raw_data.timestamp)),
      };
    },

    /**
     * The solidified blocks numbered from `start` up to before `end` that the node holds, in order, with their txIDs
     * (java-tron serves at most 100 a call); fewer, or none, past what it holds.
     */
    async solidifiedBlocks(start: bigint, end: bigint): Promise<TronBlock[]> {
      const endpoint = '/walletsolidity/getblockbylimitnext';
      const answer = parse(
        endpoint,
        blocksSchema,
        await post('walletsolidity', 'getblockbylimitnext', { startNum: Number(start), endNum: Number(end) }),
      );
      return (answer.block ?? [])
        .map((block) => ({
          number: block.block_header.raw_data.number,
          blockId: block.blockID.toLowerCase(),
          parentId: block.block_header.raw_data.parentHash.toLowerCase(),
          timestamp: new Date(Number(block.block_header.raw_data.timestamp)),
          txIds: (block.transactions ?? []).map((transaction) => transaction.txID.toLowerCase()),
        }))
        .sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
    },

    /** What the latest chain or the solidified one knows of a txID; undefined for the node's `{}` (not in a block it has). */
    async transactionInfo(view: 'latest' | 'solidified', txId: string): Promise<TronTransactionInfo | undefined> {
      const path = view === 'latest' ? 'wallet' : 'walletsolidity';
      const body = await post(path, 'gettransactioninfobyid', { value: txId });
      if (body !== null && typeof body === 'object' && Object.keys(body).length === 0) return undefined;
      const info = parse(`/${path}/gettransactioninfobyid`, infoSchema, body);
      if (info.id.toLowerCase() !== txId.toLowerCase())
        throw new TronApiError('malformed', `/${path}/gettransactioninfobyid`, 'the answer is about another transaction');
      return {
        blockNumber: info.blockNumber,
        fee: info.fee ?? 0n,
        energy: {
          total: info.receipt?.energy_usage_total ?? 0n,
          fromResources: (info.receipt?.energy_usage ?? 0n) + (info.receipt?.origin_energy_usage ?? 0n),
          burnedSun: info.receipt?.energy_fee ?? 0n,
        },
        bandwidthBurnedSun: info.receipt?.net_fee ?? 0n,
        receiptResult: info.receipt?.result,
        failed: info.result === 'FAILED',
        message: decodeHexText(info.resMessage),
      };
    },

    /** A transaction the latest chain or the solidified one holds, `T…` addresses; undefined for the node's `{}`. */
    async transaction(view: 'latest' | 'solidified', txId: string): Promise<TronTransaction | undefined> {
      const path = view === 'latest' ? 'wallet' : 'walletsolidity';
      const endpoint = `/${path}/gettransactionbyid`;
      const body = await post(path, 'gettransactionbyid', { value: txId, visible: false });
      if (body !== null && typeof body === 'object' && Object.keys(body).length === 0) return undefined;
      const answer = parse(endpoint, transactionSchema, body);
      if (answer.txID.toLowerCase() !== txId.toLowerCase())
        throw new TronApiError('malformed', endpoint, 'the answer is about another transaction');
      const [contract] = answer.raw_data.contract as [(typeof answer.raw_data.contract)[number]];
      const { owner_address: owner, to_address: to, amount } = contract.parameter.value;
      const address = (hex: string) => {
        try {
          return tronAddressFromHex(hex);
        } catch {
          throw new TronApiError('malformed', endpoint, `${JSON.stringify(hex)} is not a 41… hex address`);
        }
      };
      return {
        contractType: contract.type,
        contractRet: answer.ret?.[0]?.contractRet,
        owner: address(owner),
        to: to === undefined ? undefined : address(to),
        amount: amount ?? 0n,
      };
    },

    /**
     * A solidified transaction's logs and the index of its first in its block: the logs of the transactions before it
     * in gettransactioninfobyblocknum's list (the block's order) are counted, as the JSON-RPC numbers logIndex.
     */
    async solidifiedLogs(txId: string, blockNumber: bigint): Promise<{ logs: TronLog[]; firstLogIndex: number }> {
      const endpoint = '/walletsolidity/gettransactioninfobyblocknum';
      const infos = parse(
        endpoint,
        blockInfosSchema,
        await post('walletsolidity', 'gettransactioninfobyblocknum', { num: Number(blockNumber) }),
      );
      const at = infos.findIndex((info) => info.id.toLowerCase() === txId.toLowerCase());
      if (at < 0) throw new TronApiError('malformed', endpoint, `block ${blockNumber} does not list the transaction`);
      const firstLogIndex = infos.slice(0, at).reduce((count, info) => count + (info.log?.length ?? 0), 0);
      return { logs: infos[at]?.log ?? [], firstLogIndex };
    },

    /**
     * A TRC-20 balance, by a constant call of balanceOf(holder) on the latest state, made as `caller`: an account the
     * chain knows (the relayer), since a forwarder may never have been an account.
     */
    async tokenBalance(token: string, holder: string, caller: string): Promise<bigint> {
      const parameter = tronAddressToEvmHex(holder).slice(2).toLowerCase().padStart(64, '0');
      return BigInt(`0x${await constantWord(caller, token, 'balanceOf(address)', parameter, 'a uint256')}`);
    },

    /** What a DepositFactory's `addressOf(salt)` answers on the latest state (`T…`), asked as the factory itself. */
    async forwarderAddressOf(factory: string, salt: Hex): Promise<string> {
      const word = await constantWord(factory, factory, 'addressOf(bytes32)', salt.slice(2).toLowerCase(), 'an address');
      if (!/^0{24}/.test(word)) throw new TronApiError('malformed', CONSTANT_ENDPOINT, 'addressOf did not return an address');
      return tronAddressFromHex(`41${word.slice(24).toLowerCase()}`);
    },

    /** What a view of `contract` without arguments returning one address (`rebalanceAddress()`) answers on the latest state (`T…`). */
    async addressView(contract: string, signature: string): Promise<string> {
      const word = await constantWord(contract, contract, signature, '', 'an address');
      if (!/^0{24}/.test(word)) throw new TronApiError('malformed', CONSTANT_ENDPOINT, `${signature} did not return an address`);
      return tronAddressFromHex(`41${word.slice(24).toLowerCase()}`);
    },

    /**
     * What a TriggerSmartContract of `functionSelector(parameter)` on `contract` from `caller` would do on the latest
     * state, run as a constant call and not sent: undefined when it would succeed, else why it reverts. A node that
     * does not run the call (no answer, an error, `result.result` false: the contract or the caller is not as asked)
     * throws: that is no verdict on the call.
     */
    async simulateCall(caller: string, contract: string, functionSelector: string, parameter: string): Promise<string | undefined> {
      const answer = await constantCall(caller, contract, functionSelector, parameter);
      if (answer.result.result !== true) {
        const why = [answer.result.code, decodeHexText(answer.result.message)].filter((part) => part !== undefined).join(': ');
        throw new TronApiError('refused', CONSTANT_ENDPOINT, `the node did not run the call${why ? ` (${why})` : ''}`);
      }
      return constantCallRevert(answer);
    },

    /**
     * The energy a call would use on the latest state (the constant call's `energy_used`, the token's dynamic energy
     * included), made as `caller`. Throws when the node did not run the call or the call reverts: no estimate.
     */
    async callEnergy(caller: string, contract: string, functionSelector: string, parameter: string): Promise<bigint> {
      const answer = await constantCall(caller, contract, functionSelector, parameter);
      const reverted = answer.result.result === true ? constantCallRevert(answer) : 'the node did not run the call';
      if (reverted !== undefined) throw new TronApiError('refused', CONSTANT_ENDPOINT, `no energy estimate: ${reverted}`);
      const energy = z.object({ energy_used: int.optional() }).loose().safeParse(answer);
      if (!energy.success) throw new TronApiError('malformed', CONSTANT_ENDPOINT, 'energy_used is not a whole number');
      return energy.data.energy_used ?? 0n;
    },

    /** The network's energy and bandwidth prices and its dynamic-energy ceiling (getchainparameters). */
    async chainPrices(): Promise<TronChainPrices> {
      const endpoint = '/wallet/getchainparameters';
      const { chainParameter } = parse(endpoint, chainParametersSchema, await post('wallet', 'getchainparameters', {}));
      const value = (key: string) => chainParameter.find((parameter) => parameter.key === key);
      const required = (key: string) => {
        const found = value(key);
        if (!found) throw new TronApiError('malformed', endpoint, `the node lists no ${key}`);
        return found.value ?? 0n;
      };
      const energyFeeSun = required('getEnergyFee');
      if (energyFeeSun === 0n) throw new TronApiError('malformed', endpoint, 'getEnergyFee is 0');
      return {
        energyFeeSun,
        bandwidthFeeSun: required('getTransactionFee'),
        dynamicEnergyMaxFactor:
          (value('getAllowDynamicEnergy')?.value ?? 0n) === 0n ? 0n : (value('getDynamicEnergyMaxFactor')?.value ?? 0n),
      };
    },

    /**
     * What an account holds to pay with on the latest state: its TRX, the TRX it staked for energy (frozenV2), the
     * energy it may spend (getaccountresource's EnergyLimit: staked and delegated to it, less EnergyUsed), and the
     * bandwidth one transaction may take from its staked or its free daily allowance (a transaction takes all its
     * bytes from one of them, else burns TRX for all of them).
     */
    async accountResources(address: string): Promise<TronAccountResources> {
      const body = { address: tronAddressToHex(address), visible: false };
      const account = parse('/wallet/getaccount', accountSchema, await post('wallet', 'getaccount', body));
      const resource = parse('/wallet/getaccountresource', accountResourceSchema, await post('wallet', 'getaccountresource', body));
      const staked = left(resource.NetLimit, resource.NetUsed);
      const free = left(resource.freeNetLimit, resource.freeNetUsed);
      return {
        trxBalanceSun: account.balance ?? 0n,
        stakedForEnergySun: (account.frozenV2 ?? []).filter((f) => f.type === 'ENERGY').reduce((sum, f) => sum + (f.amount ?? 0n), 0n),
        energyLimit: resource.EnergyLimit ?? 0n,
        energyUsed: resource.EnergyUsed ?? 0n,
        bandwidthAvailable: staked > free ? staked : free,
      };
    },

    /** The TRX an account holds on the latest state, in sun. */
    async trxBalance(address: string): Promise<bigint> {
      const account = parse(
        '/wallet/getaccount',
        accountSchema,
        await post('wallet', 'getaccount', { address: tronAddressToHex(address), visible: false }),
      );
      return account.balance ?? 0n;
    },

    /** Sends a signed Transaction as the protobuf bytes it was signed as, so the node hashes exactly what was signed. */
    async broadcastHex(transactionHex: string): Promise<TronBroadcastAnswer> {
      const answer = parse('/wallet/broadcasthex', broadcastSchema, await post('wallet', 'broadcasthex', { transaction: transactionHex }));
      return {
        ...(answer.result === undefined ? {} : { result: answer.result }),
        ...(answer.code === undefined ? {} : { code: answer.code }),
        ...(answer.message === undefined ? {} : { message: answer.message }),
      };
    },
  };
}

export type TronWalletApi = ReturnType<typeof createTronWalletApi>;
