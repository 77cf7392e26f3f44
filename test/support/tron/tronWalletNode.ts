// A stand-in for a java-tron full node's HTTP wallet API on loopback, since no Tron node runs here: the /wallet/* and
// /walletsolidity/* calls the Tron relayer's writes make, answered in the shapes recorded in test/fixtures/tron/
// (sources in its README). It takes signed transactions as protobuf bytes (broadcasthex), checks what java-tron checks
// before pooling one (signature of the owner, expiration against its head, reference block, duplicates), puts pooled
// transactions into blocks as tests mine them, with the outcome and fee a test picks, and lags the solidified head
// behind the latest one. Tests can make any call fail, hang or answer something else; every call is counted.
//
// It runs no TVM. Named stand-in behaviours take its place for the sweeps: TRC-20 balances a test sets
// (setBalance), answered to balanceOf by triggerconstantcontract; factories a test registers (deployFactory), which
// answer addressOf(salt) with the offline Tron address, as the TVM build does (test/contracts/tvmDepositContracts.test.ts),
// and whose sweepMany(salts, token), when a block takes it with SUCCESS, moves each salt's forwarder balance to the collector
// and logs the token's Transfer and Swept(salt, forwarder, token, amount) for every salt, as the contracts do, and which
// answers the same sweepMany as a constant call (triggerconstantcontract) without moving anything; addresses a test
// blacklists on a token (blacklist, as USDT's isBlackListed), whose transfers of it revert, so that a sweepMany holding
// one with a balance reverts whole with the forwarder's TransferFailed(token), in a block and as a constant call (any
// sender is the factory's sweeper unless a test takes the role away, setSweeper: then its sweepMany reverts with
// NotSweeper(caller)); a
// TRC-20 transfer(to, amount) sent by any account to a token a test gave balances of, which moves the sender's
// balance and logs its Transfer, or reverts when the sender holds less (a call to any other contract changes nothing); and TRX balances (setTrx, getaccount): a
// TransferContract moves its amount when a block takes it (the broadcast is refused, as java-tron's validation
// refuses it, when the sender holds less), and a landed transaction burns its fee from its sender's TRX. Only the
// accounts a test funded or that were paid TRX are kept (a customer's deposit, `deposit`, lands without a signed
// transaction): any other sender (the relayer of the forwarder tests) is
// taken to hold plenty. A contract call whose kept sender holds less than the fee it would burn runs out of energy,
// burning what it holds. The logs are served in TransactionInfo's `log` (gettransactioninfobyid,
// gettransactioninfobyblocknum) in the node's shape, and a landed transaction's contract by gettransactionbyid; an
// operator's TRX payment (`payTrx`) lands, like a deposit, without a signed transaction. Energy (setEnergy: staked or
// delegated to an account, served by getaccountresource; prices by getchainparameters): an outcome naming the energy
// a call uses spends the sender's energy first and burns the rest at getEnergyFee, and its TransactionInfo's receipt
// says so (energy_usage, energy_fee, energy_usage_total, net_fee) as java-tron's does; a constant sweepMany or
// transfer answers the energy a test set (setCallEnergy). Collectors a test registers (deployCollector) answer
// rebalanceAddress() with the address their owner set (setRebalanceAddress), and their rebalance(token, amount), when a
// block takes it with SUCCESS, moves that much of the collector's balance there, logging the token's Transfer and
// Rebalanced(token, to, amount) as DepositCollector does, or reverts (NoRebalanceAddress, or a balance short of the
// amount); as a constant call it moves nothing and answers the energy a test set. A reorg does not undo what a
// dropped transaction moved: the tests that reorganise move nothing.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { utils as tronUtils } from 'tronweb';
import { decodeAbiParameters, toEventSelector, toFunctionSelector, type Hex } from 'viem';
import { tronForwarderAddress } from '../../../domain/addresses/depositForwarder';
import { tronAddressToEvmHex } from '../../../domain/addresses/tron';
import type { TronLog } from '../../../domain/sweeps/tronSweptLogs';
import { recorded } from '../../fixtures/tron';

const BLOCK_TIME_MS = 3_000;
const {
  nowBlock,
  broadcastSuccess,
  broadcastExpired,
  broadcastDup,
  infoSuccess,
  infoRevert,
  constantBalanceOf,
  constantRevert,
  transactionTransfer,
  chainParameters,
  accountResource,
} = recorded.http;

const SWEEP_MANY = toFunctionSelector('sweepMany(bytes32[],address)').slice(2);
const SWEPT = toEventSelector('Swept(bytes32,address,address,uint256)').slice(2);
const TRANSFER = toEventSelector('Transfer(address,address,uint256)').slice(2);
const TRC20_TRANSFER = toFunctionSelector('transfer(address,uint256)').slice(2);
const REBALANCE = toFunctionSelector('rebalance(address,uint256)').slice(2);
const REBALANCED = toEventSelector('Rebalanced(address,address,uint256)').slice(2);
/** The collector's revert while its owner has set no rebalancing address (contracts/DepositCollector.sol). */
const NO_REBALANCE_ADDRESS = toFunctionSelector('NoRebalanceAddress()').slice(2);
/** The factory's revert for a caller that is not its sweeper (contracts/SweeperRoles.sol). */
const NOT_SWEEPER = toFunctionSelector('NotSweeper(address)').slice(2);
/** The forwarder's revert when its token transfer fails (contracts/DepositForwarder.sol). */
const TRANSFER_FAILED = toFunctionSelector('TransferFailed(address)').slice(2);
/** Transaction.Contract.ContractType in java-tron's Tron.proto. */
const TRANSFER_CONTRACT_TYPE = 1;

/** What the TVM makes of a transaction when it is put in a block. */
export interface TronOutcome {
  result: 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY' | 'OUT_OF_TIME';
  /** Sun burned; with `energy`, for bandwidth alone. */
  fee: bigint;
  /** The energy a call uses: paid from its sender's energy first (setEnergy), the rest burned at getEnergyFee on top of `fee`. */
  energy?: bigint;
}

/** How a landed transaction was paid, as its receipt tells. */
interface Billing {
  energyUsage: bigint;
  energyFee: bigint;
  energyTotal: bigint;
  netFee: bigint;
}

interface Block {
  number: bigint;
  id: string;
  timestamp: number;
}

interface Landed {
  blockNumber: bigint;
  outcome: TronOutcome;
  billing?: Billing;
  logs: TronLog[];
  /** What gettransactionbyid shows of it; a deposit's lands without one. */
  sent?: { owner: string; write: Write };
}

/** What a pooled transaction does, accounts as 20-byte hex without 41: a TriggerSmartContract's call, or a TransferContract's payment. */
type Write = { kind: 'call'; contract: string; data: string } | { kind: 'transfer'; to: string; amount: bigint };

interface Pooled {
  expiration: number;
  raw: Uint8Array;
  owner: string;
  write: Write;
}

/** A DepositFactory the stand-in plays (base58 `T…` addresses). */
export interface StandInFactory {
  factory: string;
  implementation: string;
  collector: string;
}

/** One request: answer it, fail with an HTTP status, answer this body instead, or never answer. */
export type WalletNodeAction = 'answer' | 'hang' | { status: number } | { body: unknown };

export interface TronWalletNodeOptions {
  /** Blocks the solidified head trails the latest by (19 on mainnet: 2/3 of 27 witnesses); 2 unless given. */
  solidifiedLag?: number;
}

export interface TronWalletNode {
  url: string;
  head(): bigint;
  /** Produces blocks; the first takes every pooled transaction still valid in it, with `outcome` (SUCCESS, fee 345000 unless given). */
  mine(blocks: number, outcome?: (txId: string) => TronOutcome): void;
  /** Produces blocks that take nothing, as a node that lost its pool would. */
  mineEmpty(blocks: number): void;
  /** Replaces the unsolidified blocks from `fromNumber` up with as many empty ones; what they held is forgotten. */
  reorg(fromNumber: bigint): void;
  /** Forgets what is pooled, as a node restart does. */
  dropPool(): void;
  /** How many times each txID was sent, and which are in a block. */
  broadcasts: Map<string, number>;
  landed(txId: string): Landed | undefined;
  landedCount(): number;
  /** The raw_data of a broadcast transaction, decoded by TronWeb's protobuf classes. */
  rawData(txId: string): Uint8Array | undefined;
  /** Stand-in behaviour: a TRC-20 balance (base58 addresses), as balanceOf answers it. */
  setBalance(token: string, owner: string, amount: bigint): void;
  balanceOf(token: string, owner: string): bigint;
  /** Stand-in behaviour: `owner`'s transfers of `token` revert while listed (base58), as USDT's blacklist does. */
  blacklist(token: string, owner: string, listed: boolean): void;
  /** Stand-in behaviour: an account's TRX in sun (base58), as getaccount answers it; from now on its payments and fees move it. */
  setTrx(owner: string, sun: bigint): void;
  /** Stand-in behaviour: the energy `owner` holds (staked by it or delegated to it) and the TRX it staked for it, as getaccountresource and getaccount answer them. */
  setEnergy(owner: string, energy: { limit: bigint; stakedSun?: bigint }): void;
  /** EnergyUsed of an account: what landed calls spent of its energy. */
  energyUsedOf(owner: string): bigint;
  /** A chain parameter getchainparameters answers (getEnergyFee, getDynamicEnergyMaxFactor, …); 0 leaves `value` out. */
  setChainParameter(key: string, value: bigint): void;
  /** The energy_used a constant sweepMany or TRC-20 transfer answers; undefined: the recorded answer's. */
  setCallEnergy(energy: bigint | undefined): void;
  /** The TRX of an account the stand-in keeps; undefined for one it does not. */
  trxOf(owner: string): bigint | undefined;
  /**
   * Stand-in behaviour: a customer's TRC-20 transfer of `amount` from `from` to `to` (base58), landing with `result`
   * alone in a new block, its Transfer logged (at log index 0 of the block) and `to` credited when it succeeds.
   */
  deposit(token: string, from: string, to: string, amount: bigint, result?: TronOutcome['result']): string;
  /** Stand-in behaviour: someone's TRX payment (a TransferContract) of `sun` from `from` to `to`, alone in a new block. */
  payTrx(from: string, to: string, sun: bigint): string;
  /** Stand-in behaviour: sweepMany calls to `factory` move balances and log Swept when a block takes them with SUCCESS. */
  deployFactory(factory: StandInFactory): void;
  /** Stand-in behaviour: a DepositCollector at `collector` (base58) answering rebalanceAddress() and rebalance(token, amount). */
  deployCollector(collector: string): void;
  /** Stand-in behaviour: what the collector's owner set with setRebalanceAddress (base58). */
  setRebalanceAddress(collector: string, to: string): void;
  /** Stand-in behaviour: whether `account` may call `factory`'s sweepMany (base58); every account may unless a test says not. */
  setSweeper(factory: string, account: string, allowed: boolean): void;
  /** How the next requests are met, by path, index since this call and the request's JSON body. */
  setPolicy(policy: (path: string, index: number, body: Record<string, unknown>) => WalletNodeAction): void;
  calls: Map<string, number>;
  close(): Promise<void>;
}

interface ProtoTransaction {
  getRawData(): {
    serializeBinary(): Uint8Array;
    getExpiration(): number;
    getRefBlockBytes_asU8(): Uint8Array;
    getRefBlockHash_asU8(): Uint8Array;
    getContractList(): { getType(): number; getParameter(): { getValue_asU8(): Uint8Array } }[];
  };
  getSignatureList_asU8(): Uint8Array[];
}

interface Proto {
  Transaction: { deserializeBinary(bytes: Uint8Array): ProtoTransaction };
  TriggerSmartContract: {
    deserializeBinary(bytes: Uint8Array): {
      getOwnerAddress_asU8(): Uint8Array;
      getContractAddress_asU8(): Uint8Array;
      getData_asU8(): Uint8Array;
    };
  };
  TransferContract: {
    deserializeBinary(bytes: Uint8Array): { getOwnerAddress_asU8(): Uint8Array; getToAddress_asU8(): Uint8Array; getAmount(): number };
  };
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
/** A TVM address as 20 bytes of lowercase hex without 41 or 0x: how balances are keyed and logs name accounts. */
const tvm = (address: string) => tronAddressToEvmHex(address).slice(2).toLowerCase();
const word = (value: bigint | string) => (typeof value === 'bigint' ? value.toString(16) : value).padStart(64, '0');

export async function startTronWalletNode(options: TronWalletNodeOptions = {}): Promise<TronWalletNode> {
  const lag = BigInt(options.solidifiedLag ?? 2);
  const proto = (globalThis as unknown as { TronWebProto: Proto }).TronWebProto;
  // Blocks from the recorded Nile height on, in the past, so expirations set from them are already behind the wall clock.
  const template = nowBlock.block_header.raw_data;
  const blocks: Block[] = [];
  const start = Date.now() - 10 * 60_000;
  let branch = 0;
  const append = () => {
    const number = BigInt(template.number) + BigInt(blocks.length);
    const digest = createHash('sha256').update(`block:${branch}:${number}`).digest('hex').slice(0, 48);
    blocks.push({ number, id: `${number.toString(16).padStart(16, '0')}${digest}`, timestamp: start + blocks.length * BLOCK_TIME_MS });
  };
  for (let i = 0; i <= Number(lag); i++) append();
  const tip = () => blocks[blocks.length - 1] as Block;
  const solidified = () => blocks[Math.max(0, blocks.length - 1 - Number(lag))] as Block;

  const pool = new Map<string, Pooled>();
  const landed = new Map<string, Landed>();
  const raws = new Map<string, Uint8Array>();
  const broadcasts = new Map<string, number>();

  const blockJson = (block: Block) => ({
    ...nowBlock,
    blockID: block.id,
    block_header: {
      ...nowBlock.block_header,
      raw_data: {
        ...template,
        number: Number(block.number),
        timestamp: block.timestamp,
        parentHash: blocks[blocks.indexOf(block) - 1]?.id ?? template.parentHash,
      },
    },
  });

  const refuse = (code: string, message: string, txid: string) => ({ ...broadcastExpired, code, message, txid, transaction: '{}' });

  const broadcastHex = (transactionHex: string) => {
    const transaction = proto.Transaction.deserializeBinary(Buffer.from(transactionHex, 'hex'));
    const raw = transaction.getRawData();
    const rawBytes = raw.serializeBinary();
    const txId = createHash('sha256').update(rawBytes).digest('hex');
    broadcasts.set(txId, (broadcasts.get(txId) ?? 0) + 1);
    raws.set(txId, rawBytes);
    const [contract] = raw.getContractList();
    const parameter = contract?.getParameter().getValue_asU8() ?? new Uint8Array();
    let owner: string;
    let write: Write;
    if (contract?.getType() === TRANSFER_CONTRACT_TYPE) {
      const payment = proto.TransferContract.deserializeBinary(parameter);
      owner = hex(payment.getOwnerAddress_asU8());
      write = { kind: 'transfer', to: hex(payment.getToAddress_asU8()).slice(2), amount: BigInt(payment.getAmount()) };
    } else {
      const trigger = proto.TriggerSmartContract.deserializeBinary(parameter);
      owner = hex(trigger.getOwnerAddress_asU8());
      write = { kind: 'call', contract: hex(trigger.getContractAddress_asU8()).slice(2), data: hex(trigger.getData_asU8()) };
    }
    const [signature] = transaction.getSignatureList_asU8();
    if (!signature || tronUtils.crypto.ecRecover(txId, hex(signature)).toLowerCase() !== owner)
      return refuse('SIGERROR', 'Validate signature error', txId);
    if (pool.has(txId) || landed.has(txId)) return { ...broadcastDup, txid: txId };
    if (raw.getExpiration() <= tip().timestamp) return { ...broadcastExpired, txid: txId };
    const [refBytes, refHash] = [hex(raw.getRefBlockBytes_asU8()), hex(raw.getRefBlockHash_asU8())];
    if (!blocks.some((block) => block.id.slice(12, 16) === refBytes && block.id.slice(16, 32) === refHash))
      return refuse('TAPOS_ERROR', 'Tapos check error', txId);
    const held = trx.get(owner.slice(2));
    if (write.kind === 'transfer' && held !== undefined && held < write.amount)
      return refuse('CONTRACT_VALIDATE_ERROR', 'Validate TransferContract error, balance is not sufficient.', txId);
    pool.set(txId, { expiration: raw.getExpiration(), raw: rawBytes, owner: owner.slice(2), write });
    return { ...broadcastSuccess, txid: txId };
  };

  const info = (txId: string, upTo: bigint) => {
    const found = landed.get(txId);
    if (!found || found.blockNumber > upTo) return {};
    const block = blocks.find((b) => b.number === found.blockNumber) as Block;
    const landedInfo = { id: txId, fee: Number(found.outcome.fee), blockNumber: Number(block.number), blockTimeStamp: block.timestamp };
    // The receipt's fields as java-tron prints them: each left out when zero.
    const billing = found.billing ?? { energyUsage: 0n, energyFee: 0n, energyTotal: 0n, netFee: found.outcome.fee };
    const receipt = Object.fromEntries(
      Object.entries({
        energy_usage: billing.energyUsage,
        energy_fee: billing.energyFee,
        energy_usage_total: billing.energyTotal,
        net_fee: billing.netFee,
      })
        .filter(([, value]) => value > 0n)
        .map(([key, value]) => [key, Number(value)]),
    );
    if (found.outcome.result !== 'SUCCESS') return { ...infoRevert, ...landedInfo, receipt: { ...receipt, result: found.outcome.result } };
    return { ...infoSuccess, ...landedInfo, receipt: { ...receipt, result: 'SUCCESS' }, log: found.logs };
  };

  /** gettransactionbyid: the landed transaction's one contract, as the recorded TransferContract's shape carries it. */
  const transaction = (txId: string, upTo: bigint) => {
    const found = landed.get(txId);
    if (!found?.sent || found.blockNumber > upTo) return {};
    const { owner, write } = found.sent;
    const template = transactionTransfer.raw_data.contract[0] as (typeof transactionTransfer.raw_data.contract)[number];
    const contract =
      write.kind === 'transfer'
        ? {
            ...template,
            parameter: {
              ...template.parameter,
              value: { amount: Number(write.amount), owner_address: `41${owner}`, to_address: `41${write.to}` },
            },
          }
        : {
            type: 'TriggerSmartContract',
            parameter: {
              value: { data: write.data, owner_address: `41${owner}`, contract_address: `41${write.contract}` },
              type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
            },
          };
    return {
      ...transactionTransfer,
      txID: txId,
      ret: [{ contractRet: found.outcome.result }],
      raw_data: { ...transactionTransfer.raw_data, contract: [contract] },
    };
  };

  /** gettransactioninfobyblocknum: the block's TransactionInfos in the order the block holds them. */
  const blockInfos = (number: bigint, upTo: bigint) =>
    number > upTo ? [] : [...landed].filter(([, found]) => found.blockNumber === number).map(([txId]) => info(txId, upTo));

  // Stand-in behaviour: balances and factories in place of the TVM's state.
  const balances = new Map<string, bigint>();
  const factories = new Map<string, StandInFactory>();
  const balanceKey = (token: string, owner: string) => `${token}:${owner}`;
  const balanceOf = (token: string, owner: string) => balances.get(balanceKey(token, owner)) ?? 0n;
  const trx = new Map<string, bigint>();
  const energy = new Map<string, { limit: bigint; used: bigint; stakedSun: bigint }>();
  const parameters = new Map<string, bigint>(chainParameters.chainParameter.map((p) => [p.key, BigInt(p.value ?? 0)]));
  let callEnergy: bigint | undefined;
  const withCallEnergy = <T extends object>(answer: T) =>
    callEnergy === undefined ? answer : { ...answer, energy_used: Number(callEnergy) };
  const tokens = new Set<string>();
  const blacklisted = new Set<string>();
  /** Per factory, the accounts a test took the sweeper role from. */
  const notSweepers = new Map<string, Set<string>>();

  /** Per registered collector, the rebalancing address its owner set (20-byte hex; empty: none). */
  const collectors = new Map<string, string>();

  const constantCall = (body: Record<string, unknown>) => {
    const parameter = String(body.parameter ?? '');
    const collector = String(body.contract_address).toLowerCase().slice(2);
    if (collectors.has(collector) && body.function_selector === 'rebalanceAddress()')
      return { ...constantBalanceOf, constant_result: [word(collectors.get(collector) || '0')] };
    if (collectors.has(collector) && body.function_selector === 'rebalance(address,uint256)') {
      const failing = rebalanceFailure(collector, `${REBALANCE}${parameter}`);
      if (failing === undefined) return withCallEnergy({ ...constantBalanceOf, constant_result: [''] });
      return { ...constantRevert, constant_result: [failing] };
    }
    const factory = factories.get(String(body.contract_address).toLowerCase().slice(2));
    if (factory && body.function_selector === 'sweepMany(bytes32[],address)') {
      const caller = String(body.owner_address).toLowerCase().slice(2);
      if (notSweepers.get(tvm(factory.factory))?.has(caller))
        return { ...constantRevert, constant_result: [`${NOT_SWEEPER}${word(caller)}`] };
      const failing = sweepFailure(factory, `${SWEEP_MANY}${parameter}`);
      // sweepMany returns nothing: a call that ran answers one empty result, as java-tron prints empty bytes.
      if (failing === undefined) return withCallEnergy({ ...constantBalanceOf, constant_result: [''] });
      return { ...constantRevert, constant_result: [`${TRANSFER_FAILED}${word(failing)}`] };
    }
    if (factory && body.function_selector === 'addressOf(bytes32)' && parameter.length === 64) {
      const forwarder = tvm(tronForwarderAddress(factory, `0x${parameter}`));
      return { ...constantBalanceOf, constant_result: [word(forwarder)] };
    }
    const contract = String(body.contract_address).toLowerCase().slice(2);
    if (tokens.has(contract) && body.function_selector === 'transfer(address,uint256)') {
      const [, amount] = decodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], `0x${parameter}` as Hex);
      const caller = String(body.owner_address).toLowerCase().slice(2);
      if (balanceOf(contract, caller) < amount || blacklisted.has(balanceKey(contract, caller)))
        return { ...constantRevert, constant_result: [''] };
      return withCallEnergy({ ...constantBalanceOf, constant_result: [word(1n)] });
    }
    if (body.function_selector !== 'balanceOf(address)' || parameter.length !== 64)
      return { ...constantBalanceOf, result: { code: 'CONTRACT_EXE_ERROR', message: '' }, constant_result: [''] };
    const token = String(body.contract_address).toLowerCase().slice(2);
    return { ...constantBalanceOf, constant_result: [word(balanceOf(token, parameter.slice(24).toLowerCase()))] };
  };

  const sweepArguments = (data: string) => {
    const [salts, tokenHex] = decodeAbiParameters([{ type: 'bytes32[]' }, { type: 'address' }], `0x${data.slice(8)}` as Hex);
    return { salts, token: tokenHex.slice(2).toLowerCase() };
  };

  /**
   * The token a sweepMany on `factory` fails on when a forwarder in it that holds some is blacklisted (the forwarder
   * sends nothing, and so calls nothing, when it holds none); undefined when every transfer would go through.
   */
  const sweepFailure = (factory: StandInFactory, data: string): string | undefined => {
    const { salts, token } = sweepArguments(data);
    const fails = salts.some((salt) => {
      const forwarder = tvm(tronForwarderAddress(factory, salt));
      return blacklisted.has(balanceKey(token, forwarder)) && balanceOf(token, forwarder) > 0n;
    });
    return fails ? token : undefined;
  };

  /** What a sweepMany on a registered factory does in the block that takes it: each salt's balance to the collector. */
  const sweepMany = (factory: StandInFactory, owner: string, call: { contract: string; data: string }): TronLog[] | undefined => {
    if (notSweepers.get(call.contract)?.has(owner) || sweepFailure(factory, call.data) !== undefined) return undefined;
    const { salts, token } = sweepArguments(call.data);
    const collector = tvm(factory.collector);
    // The token's Transfer to the collector, then the factory's Swept, per salt: the order the contracts log them.
    return salts.flatMap((salt) => {
      const forwarder = tvm(tronForwarderAddress(factory, salt));
      const amount = balanceOf(token, forwarder);
      balances.set(balanceKey(token, forwarder), 0n);
      balances.set(balanceKey(token, collector), balanceOf(token, collector) + amount);
      const swept = { address: call.contract, topics: [SWEPT, salt.slice(2), word(forwarder), word(token)], data: word(amount) };
      return amount === 0n
        ? [swept]
        : [{ address: token, topics: [TRANSFER, word(forwarder), word(collector)], data: word(amount) }, swept];
    });
  };

  const rebalanceArguments = (data: string) => {
    const [tokenHex, amount] = decodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], `0x${data.slice(8)}` as Hex);
    return { token: tokenHex.slice(2).toLowerCase(), amount };
  };

  /** The revert data of a collector's rebalance, or undefined when it would pay (a short balance reverts with the token's empty data). */
  const rebalanceFailure = (collector: string, data: string): string | undefined => {
    const { token, amount } = rebalanceArguments(data);
    if (!collectors.get(collector)) return NO_REBALANCE_ADDRESS;
    return balanceOf(token, collector) < amount ? '' : undefined;
  };

  /** What a collector's rebalance does in the block that takes it: `amount` of the token to its rebalancing address. */
  const rebalance = (collector: string, call: { contract: string; data: string }): TronLog[] | undefined => {
    if (rebalanceFailure(collector, call.data) !== undefined) return undefined;
    const { token, amount } = rebalanceArguments(call.data);
    const to = collectors.get(collector) as string;
    balances.set(balanceKey(token, collector), balanceOf(token, collector) - amount);
    balances.set(balanceKey(token, to), balanceOf(token, to) + amount);
    return [
      { address: token, topics: [TRANSFER, word(collector), word(to)], data: word(amount) },
      { address: collector, topics: [REBALANCED, word(token), word(to)], data: word(amount) },
    ];
  };

  /** A TRC-20 transfer(to, amount) from `owner`: its Transfer log, or undefined (a revert) when the owner holds less. */
  const trc20Transfer = (owner: string, call: { contract: string; data: string }): TronLog[] | undefined => {
    const [toHex, amount] = decodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], `0x${call.data.slice(8)}` as Hex);
    const [token, to] = [call.contract, toHex.slice(2).toLowerCase()];
    if (balanceOf(token, owner) < amount || blacklisted.has(balanceKey(token, owner))) return undefined;
    balances.set(balanceKey(token, owner), balanceOf(token, owner) - amount);
    balances.set(balanceKey(token, to), balanceOf(token, to) + amount);
    return [{ address: token, topics: [TRANSFER, word(owner), word(to)], data: word(amount) }];
  };

  /** What a transaction does in the block that takes it with SUCCESS: its logs, or undefined when it reverts. */
  const execute = ({ owner, write }: Pooled): TronLog[] | undefined => {
    if (write.kind === 'transfer') {
      const held = trx.get(owner);
      if (held !== undefined) trx.set(owner, held - write.amount);
      trx.set(write.to, (trx.get(write.to) ?? 0n) + write.amount);
      return [];
    }
    const factory = factories.get(write.contract);
    if (factory && write.data.startsWith(SWEEP_MANY)) return sweepMany(factory, owner, write);
    if (tokens.has(write.contract) && write.data.startsWith(TRC20_TRANSFER)) return trc20Transfer(owner, write);
    if (collectors.has(write.contract) && write.data.startsWith(REBALANCE)) return rebalance(write.contract, write);
    return [];
  };

  /** The block's verdict on a pooled transaction: the test's outcome, out of energy when its kept sender cannot burn the fee. */
  const land = (pooled: Pooled, chosen: TronOutcome): Omit<Landed, 'blockNumber'> => {
    const held = trx.get(pooled.owner);
    const billing = bill(pooled, chosen);
    let outcome: TronOutcome = { result: chosen.result, fee: billing.energyFee + billing.netFee };
    if (held !== undefined && pooled.write.kind === 'call' && held < outcome.fee) {
      outcome = { result: 'OUT_OF_ENERGY', fee: held };
      billing.energyFee = held > billing.netFee ? held - billing.netFee : 0n;
      billing.netFee = held - billing.energyFee;
    }
    const account = energy.get(pooled.owner);
    if (account) account.used += billing.energyUsage;
    const logs = outcome.result === 'SUCCESS' ? execute(pooled) : [];
    if (logs === undefined) outcome = { ...outcome, result: 'REVERT' };
    const after = trx.get(pooled.owner);
    if (after !== undefined) trx.set(pooled.owner, after - outcome.fee);
    return { outcome, billing, logs: logs ?? [] };
  };

  /**
   * How a transaction pays: with `energy`, the sender's energy first and the rest burned at getEnergyFee, `fee` for
   * bandwidth; without, a call's `fee` is taken as burned for energy, a payment's for bandwidth.
   */
  const bill = (pooled: Pooled, chosen: TronOutcome): Billing => {
    const price = parameters.get('getEnergyFee') ?? 0n;
    if (chosen.energy === undefined) {
      if (pooled.write.kind === 'transfer' || price === 0n) return { energyUsage: 0n, energyFee: 0n, energyTotal: 0n, netFee: chosen.fee };
      return { energyUsage: 0n, energyFee: chosen.fee, energyTotal: chosen.fee / price, netFee: 0n };
    }
    const account = energy.get(pooled.owner);
    const available = account && account.limit > account.used ? account.limit - account.used : 0n;
    const covered = available < chosen.energy ? available : chosen.energy;
    return { energyUsage: covered, energyFee: (chosen.energy - covered) * price, energyTotal: chosen.energy, netFee: chosen.fee };
  };

  const answer = (path: string, body: Record<string, unknown>): unknown => {
    switch (path) {
      case '/walletsolidity/getnowblock':
        return blockJson(solidified());
      case '/walletsolidity/getblockbylimitnext': {
        const [from, to] = [BigInt(Number(body.startNum)), BigInt(Number(body.endNum))];
        const held = blocks.filter((block) => block.number >= from && block.number < to && block.number <= solidified().number);
        if (held.length === 0) return {};
        return {
          block: held.map((block) => ({
            ...blockJson(block),
            transactions: [...landed].filter(([, found]) => found.blockNumber === block.number).map(([txID]) => ({ txID, ret: [] })),
          })),
        };
      }
      case '/wallet/broadcasthex':
        return broadcastHex(String(body.transaction));
      case '/wallet/gettransactioninfobyid':
        return info(String(body.value), tip().number);
      case '/walletsolidity/gettransactioninfobyid':
        return info(String(body.value), solidified().number);
      case '/wallet/gettransactionbyid':
        return transaction(String(body.value), tip().number);
      case '/walletsolidity/gettransactionbyid':
        return transaction(String(body.value), solidified().number);
      case '/wallet/gettransactioninfobyblocknum':
        return blockInfos(BigInt(Number(body.num)), tip().number);
      case '/walletsolidity/gettransactioninfobyblocknum':
        return blockInfos(BigInt(Number(body.num)), solidified().number);
      case '/wallet/triggerconstantcontract':
        return constantCall(body);
      case '/wallet/getaccount': {
        const owner = String(body.address).toLowerCase().slice(2);
        const held = trx.get(owner) ?? 0n;
        const staked = energy.get(owner)?.stakedSun ?? 0n;
        if (held === 0n && staked === 0n) return {};
        return {
          address: String(body.address),
          ...(held > 0n ? { balance: Number(held) } : {}),
          ...(staked > 0n ? { frozenV2: [{}, { type: 'ENERGY', amount: Number(staked) }, { type: 'TRON_POWER' }] } : {}),
        };
      }
      case '/wallet/getaccountresource': {
        const owner = String(body.address).toLowerCase().slice(2);
        const account = energy.get(owner);
        if (!account && !trx.has(owner)) return {};
        const { freeNetLimit, TotalNetLimit, TotalNetWeight, TotalEnergyLimit, TotalEnergyWeight } = accountResource;
        return {
          freeNetLimit,
          TotalNetLimit,
          TotalNetWeight,
          TotalEnergyLimit,
          TotalEnergyWeight,
          ...(account && account.used > 0n ? { EnergyUsed: Number(account.used) } : {}),
          ...(account && account.limit > 0n ? { EnergyLimit: Number(account.limit) } : {}),
        };
      }
      case '/wallet/getchainparameters':
        return {
          chainParameter: [...parameters].map(([key, value]) => (value === 0n ? { key } : { key, value: Number(value) })),
        };
      default:
        return { Error: `class java.lang.IllegalArgumentException : no such servlet ${path}` };
    }
  };

  const calls = new Map<string, number>();
  let policy: (path: string, index: number, body: Record<string, unknown>) => WalletNodeAction = () => 'answer';
  let index = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
      calls.set(path, (calls.get(path) ?? 0) + 1);
      const text = Buffer.concat(chunks).toString('utf8');
      const sent = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      const action = policy(path, index++, sent);
      if (action === 'hang') return;
      if (action !== 'answer' && 'status' in action) {
        response.writeHead(action.status, { 'content-type': 'text/plain' }).end('injected failure');
        return;
      }
      const body = action === 'answer' ? answer(path, sent) : action.body;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const defaultOutcome = (): TronOutcome => ({ result: 'SUCCESS', fee: 345_000n });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    head: () => tip().number,
    mine(count, outcome = defaultOutcome) {
      for (let i = 0; i < count; i++) {
        const parent = tip();
        append();
        for (const [txId, pooled] of pool) {
          pool.delete(txId);
          // java-tron refuses a transaction whose expiration is not after its parent block's time.
          if (pooled.expiration <= parent.timestamp) continue;
          landed.set(txId, { blockNumber: tip().number, ...land(pooled, outcome(txId)), sent: pooled });
        }
      }
    },
    mineEmpty(count) {
      for (let i = 0; i < count; i++) append();
    },
    reorg(fromNumber) {
      if (fromNumber <= solidified().number) throw new Error('a solidified block cannot be replaced');
      const removed = blocks.splice(Number(fromNumber - BigInt(template.number)));
      for (const [txId, found] of landed) if (found.blockNumber >= fromNumber) landed.delete(txId);
      branch += 1;
      for (let i = 0; i < removed.length; i++) append();
    },
    dropPool: () => pool.clear(),
    broadcasts,
    landed: (txId) => landed.get(txId),
    landedCount: () => landed.size,
    rawData: (txId) => raws.get(txId),
    setBalance(token, owner, amount) {
      tokens.add(tvm(token));
      balances.set(balanceKey(tvm(token), tvm(owner)), amount);
    },
    balanceOf: (token, owner) => balanceOf(tvm(token), tvm(owner)),
    blacklist(token, owner, listed) {
      const key = balanceKey(tvm(token), tvm(owner));
      if (listed) blacklisted.add(key);
      else blacklisted.delete(key);
    },
    setTrx: (owner, sun) => void trx.set(tvm(owner), sun),
    setEnergy(owner, { limit, stakedSun = 0n }) {
      energy.set(tvm(owner), { limit, used: energy.get(tvm(owner))?.used ?? 0n, stakedSun });
    },
    energyUsedOf: (owner) => energy.get(tvm(owner))?.used ?? 0n,
    setChainParameter: (key, value) => void parameters.set(key, value),
    setCallEnergy(value) {
      callEnergy = value;
    },
    trxOf: (owner) => trx.get(tvm(owner)),
    deposit(token, from, to, amount, result = 'SUCCESS') {
      append();
      const txId = createHash('sha256').update(`deposit:${branch}:${tip().number}:${token}:${to}:${amount}`).digest('hex');
      const [tokenHex, fromHex, toHex] = [tvm(token), tvm(from), tvm(to)];
      const logs = result === 'SUCCESS' ? [{ address: tokenHex, topics: [TRANSFER, word(fromHex), word(toHex)], data: word(amount) }] : [];
      if (result === 'SUCCESS') {
        tokens.add(tokenHex);
        balances.set(balanceKey(tokenHex, toHex), balanceOf(tokenHex, toHex) + amount);
      }
      landed.set(txId, { blockNumber: tip().number, outcome: { result, fee: 0n }, logs });
      return txId;
    },
    payTrx(from, to, sun) {
      append();
      const txId = createHash('sha256').update(`payTrx:${branch}:${tip().number}:${from}:${to}:${sun}`).digest('hex');
      const sent = { owner: tvm(from), write: { kind: 'transfer' as const, to: tvm(to), amount: sun } };
      const held = trx.get(sent.owner);
      if (held !== undefined) trx.set(sent.owner, held - sun);
      trx.set(sent.write.to, (trx.get(sent.write.to) ?? 0n) + sun);
      landed.set(txId, { blockNumber: tip().number, outcome: { result: 'SUCCESS', fee: 0n }, logs: [], sent });
      return txId;
    },
    deployFactory: (factory) => void factories.set(tvm(factory.factory), factory),
    deployCollector: (collector) => void collectors.set(tvm(collector), collectors.get(tvm(collector)) ?? ''),
    setRebalanceAddress: (collector, to) => void collectors.set(tvm(collector), tvm(to)),
    setSweeper(factory, account, allowed) {
      const refused = notSweepers.get(tvm(factory)) ?? new Set<string>();
      if (allowed) refused.delete(tvm(account));
      else refused.add(tvm(account));
      notSweepers.set(tvm(factory), refused);
    },
    setPolicy(next) {
      policy = next;
      index = 0;
    },
    calls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
