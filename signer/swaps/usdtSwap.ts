// One USDT→USDC swap route, (CCTP chain, mode), on the signer: it alone holds the relayer key that calls the
// DepositCollector's swap (docs/settlement.md#usdt-swaps). start writes the swap and its chain intent (swap:<id>)
// ahead, priced by QuoterV2 and judged against 1:1; advance is one resumable pass over the intent, and once the
// swap is final posts what left and entered the collector. The USDC it brings goes on with the chain's next CCTP
// transfer.
import { ApplicationFailure } from '@temporalio/activity';
import { erc20Abi, isAddressEqual, parseEventLogs, type Address, type Hex, type PublicClient } from 'viem';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import type { Sql } from '../../db/client';
import { postLedger } from '../../db/repositories/ledger';
import { findSwap, insertSwap, setSwapFailed, setSwapSwapped, swapInFlight, type Swap } from '../../db/repositories/swaps';
import type { CctpSourceChain } from '../../domain/cctp/domains';
import { evmCallDifference, usdtSwapCall } from '../../domain/chainWrites/intentCall';
import { gasPaidWei } from '../../domain/chains/gasPaid';
import { relayerGasPaid, swapLanded } from '../../domain/ledger/ledger';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { atPar, judgeSwapQuote, judgeSwapStart, swapIdFor, swapIntentId } from '../../domain/swaps/swap';
import { quoterV2Abi } from '../../domain/swaps/uniswapV3Abi';
import type { Mode } from '../../domain/wire/session';
import type { EvmChainWriter } from '../chainWrites/evmChainWriter';
import { refuseAlteredCall } from '../chainWrites/intentCallCheck';

export interface SwapToken {
  address: Address;
  decimals: number;
}

export interface UsdtSwapRouteDeps {
  sql: Sql;
  mode: Mode;
  chain: CctpSourceChain;
  client: PublicClient;
  writer: EvmChainWriter;
  collector: Address;
  usdt: SwapToken;
  usdc: SwapToken;
  /** SWAP_ROUTER_<CHAIN>_<NETWORK>: the collector must be set to it. */
  router: Address;
  /** SWAP_QUOTER_<CHAIN>_<NETWORK>. */
  quoter: Address;
  poolFee: number;
  maxDeviationBps: number;
  /** USDT base units the collector must hold before a swap starts: the transfer minimum. */
  minimum: bigint;
  /** Only what the collector held this deep is swapped, as the transfers burn only settled sweeps. */
  confirmations: number;
}

export type SwapStartAnswer =
  | { status: 'started' | 'in_flight'; swapId: string }
  | { status: 'idle'; reason: string }
  /** The quote is further below 1:1 than SWAP_MAX_DEVIATION_BPS: nothing written, the next run asks again. */
  | { status: 'waiting_price'; reason: string; deviationBps: number };
export type SwapAnswer =
  { status: 'pending'; deferred?: string } | { status: 'swapped'; amountOut: string } | { status: 'failed'; reason: string };

const refuse = (message: string) => ApplicationFailure.nonRetryable(message, WorkflowFailure.TransferRefused);

export function createUsdtSwapRoute(deps: UsdtSwapRouteDeps) {
  const { sql } = deps;
  const par = (amountIn: bigint) => atPar(amountIn, deps.usdt.decimals, deps.usdc.decimals);

  async function load(swapId: string): Promise<Swap> {
    const swap = await findSwap(sql, swapId);
    if (!swap || swap.mode !== deps.mode || swap.chain !== deps.chain) throw refuse(`no ${deps.mode} swap ${swapId} on ${deps.chain}`);
    return swap;
  }

  /** The collector must swap through the configured router into the chain's USDC, or its swaps go elsewhere. */
  async function checkCollector(): Promise<void> {
    const read = (functionName: 'swapRouter' | 'swapTokenOut') =>
      deps.client.readContract({ address: deps.collector, abi: depositCollector.abi, functionName });
    const [router, tokenOut] = [await read('swapRouter'), await read('swapTokenOut')];
    if (!isAddressEqual(router, deps.router))
      throw refuse(`the ${deps.chain} collector swaps through ${router}, not the configured ${deps.router}`);
    if (!isAddressEqual(tokenOut, deps.usdc.address))
      throw refuse(`the ${deps.chain} collector swaps into ${tokenOut}, not USDC ${deps.usdc.address}`);
  }

  async function start(runKey: string): Promise<SwapStartAnswer> {
    const swapId = swapIdFor(runKey);
    if (await findSwap(sql, swapId)) return { status: 'started', swapId };
    const inFlight = await swapInFlight(sql, deps.mode, deps.chain);
    if (inFlight) return { status: 'in_flight', swapId: inFlight.id };
    await checkCollector();
    const head = await deps.client.getBlockNumber({ cacheTime: 0 });
    const settledBlock = head >= BigInt(deps.confirmations - 1) ? head - BigInt(deps.confirmations - 1) : 0n;
    const balance = await deps.client.readContract({
      address: deps.usdt.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [deps.collector],
      blockNumber: settledBlock,
    });
    const verdict = judgeSwapStart({ balance, minimum: deps.minimum });
    if (!verdict.start) return { status: 'idle', reason: verdict.reason };
    const { result } = await deps.client.simulateContract({
      address: deps.quoter,
      abi: quoterV2Abi,
      functionName: 'quoteExactInputSingle',
      args: [
        { tokenIn: deps.usdt.address, tokenOut: deps.usdc.address, amountIn: verdict.amountIn, fee: deps.poolFee, sqrtPriceLimitX96: 0n },
      ],
    });
    const price = judgeSwapQuote({
      amountIn: verdict.amountIn,
      quotedOut: result[0],
      decimalsIn: deps.usdt.decimals,
      decimalsOut: deps.usdc.decimals,
      maxDeviationBps: deps.maxDeviationBps,
    });
    if (!price.swap) return { status: 'waiting_price', reason: price.reason, deviationBps: price.deviationBps };
    const intentId = swapIntentId(swapId);
    const planned = { tokenIn: deps.usdt.address, poolFee: deps.poolFee, amountIn: verdict.amountIn, minOut: price.minOut };
    await deps.writer.prepare(intentId, usdtSwapCall({ collector: deps.collector, ...planned }));
    await insertSwap(sql, { id: swapId, mode: deps.mode, chain: deps.chain, intentId, ...planned });
    return { status: 'started', swapId };
  }

  /**
   * Why the swap's stored call is not to be signed: it is not the configured collector's swap of the configured USDT
   * in the configured pool for the row's amount and minimum, or the row's minimum is further below 1:1 than
   * SWAP_MAX_DEVIATION_BPS allows (a row edited to sell cheap).
   */
  function difference(swap: Swap, call: Parameters<typeof evmCallDifference>[0]): string | undefined {
    const expected = usdtSwapCall({
      collector: deps.collector,
      tokenIn: deps.usdt.address,
      poolFee: deps.poolFee,
      amountIn: swap.amountIn,
      minOut: swap.minOut,
    });
    const floor = (par(swap.amountIn) * BigInt(10_000 - deps.maxDeviationBps)) / 10_000n;
    const cheap = swap.minOut < floor ? `its minimum out ${swap.minOut} is below ${floor}, 1:1 less SWAP_MAX_DEVIATION_BPS` : undefined;
    return [evmCallDifference(call, expected), cheap].filter((found) => found !== undefined).join('; ') || undefined;
  }

  async function advance(swapId: string): Promise<SwapAnswer> {
    const swap = await load(swapId);
    if (swap.stage === 'failed') return { status: 'failed', reason: swap.failure ?? 'the swap failed' };
    if (swap.stage === 'swapped') return { status: 'swapped', amountOut: (swap.amountOut ?? 0n).toString() };
    await refuseAlteredCall(sql, swap.intentId, { kind: 'usdt-swap', chain: deps.chain, mode: deps.mode }, ({ call }) =>
      difference(swap, call),
    );
    const { intent, deferred } = await deps.writer.advance(swap.intentId);
    if (intent.status !== 'failed' && intent.status !== 'finalized')
      return deferred === undefined ? { status: 'pending' } : { status: 'pending', deferred };
    const hash = intent.signature as Hex;
    const receipt = await deps.client.getTransactionReceipt({ hash });
    const gas = relayerGasPaid(swap.intentId, deps.mode, deps.chain, gasPaidWei(receipt));
    if (intent.status === 'failed') {
      // Reverted: the price moved past the quote (the pool's minimum) or the collector's floor. The USDT stayed; the
      // next run quotes again.
      const reason = `the swap ${hash} reverted`;
      await sql.begin(async (tx) => {
        await setSwapFailed(tx, swapId, { txHash: hash, reason });
        if (gas) await postLedger(tx, gas);
      });
      return { status: 'failed', reason };
    }
    const swapped = parseEventLogs({ abi: depositCollector.abi, eventName: 'Swapped', logs: receipt.logs }).filter((log) =>
      isAddressEqual(log.address, deps.collector),
    );
    if (swapped.length !== 1) throw refuse(`the swap ${hash} emitted ${swapped.length} Swapped events, not one`);
    const { amountIn, amountOut } = swapped[0]!.args;
    if (amountIn !== swap.amountIn) throw refuse(`the swap ${hash} sold ${amountIn}, not ${swap.amountIn}`);
    await sql.begin(async (tx) => {
      await setSwapSwapped(tx, swapId, { txHash: hash, amountOut });
      await postLedger(tx, swapLanded(swapId, deps.mode, deps.chain, { amountIn, par: par(amountIn), amountOut }));
      if (gas) await postLedger(tx, gas);
    });
    return { status: 'swapped', amountOut: amountOut.toString() };
  }

  return { start, advance };
}

export type UsdtSwapRoute = ReturnType<typeof createUsdtSwapRoute>;
