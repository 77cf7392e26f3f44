// Uniswap V3 on a local chain, deployed from the npm packages' own build artifacts (the bytecode Uniswap deployed,
// not a stand-in): the factory, SwapRouter02, QuoterV2 and the NonfungiblePositionManager that seeds liquidity.
// The position manager and the quoter find a pool by its CREATE2 address, which holds only because the v3-core
// pool bytecode here hashes to the periphery's POOL_INIT_CODE_HASH.
import { createRequire } from 'node:module';
import { erc20Abi, getAddress, maxUint256, parseAbi, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import type { LocalChain } from '../localChain/localChain';

interface HardhatArtifact {
  abi: Abi;
  bytecode: Hex;
}

const require = createRequire(import.meta.url);
const artifact = (path: string) => require(path) as HardhatArtifact;

const ARTIFACTS = {
  UniswapV3Factory: '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
  NonfungiblePositionManager: '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  QuoterV2: '@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
  SwapRouter02: '@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json',
} as const;

const factoryAbi = parseAbi([
  'function enableFeeAmount(uint24 fee, int24 tickSpacing)',
  'function feeAmountTickSpacing(uint24 fee) view returns (int24)',
  'function createPool(address tokenA, address tokenB, uint24 fee) returns (address pool)',
  'function getPool(address tokenA, address tokenB, uint24 fee) view returns (address)',
]);
const poolAbi = parseAbi(['function initialize(uint160 sqrtPriceX96)']);
const positionManagerAbi = parseAbi([
  'struct MintParams { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'function mint(MintParams params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
]);

/** The 0.01% tier: Uniswap's factory ships with 500, 3000 and 10000 only; governance enabled 100 later, as here. */
const LOW_FEE_TIER = { fee: 100, tickSpacing: 1 } as const;

export interface UniswapV3 {
  factory: Address;
  swapRouter: Address;
  quoter: Address;
  positionManager: Address;
}

export interface SeedPoolOptions {
  tokenA: Address;
  tokenB: Address;
  fee: number;
  /** Of each token, in whole tokens (scaled by each token's decimals): the pool starts at 1:1. */
  wholeTokens: bigint;
  /** The liquidity sits within this many ticks (0.01% each) either side of 1:1. */
  tickRange?: number;
}

/** The factory (with the 0.01% tier enabled), SwapRouter02, QuoterV2 and the position manager, all owned by account 0. */
export async function deployUniswapV3(chain: LocalChain): Promise<UniswapV3> {
  const deploy = async (name: keyof typeof ARTIFACTS, args: readonly unknown[]): Promise<Address> => {
    const { abi, bytecode } = artifact(ARTIFACTS[name]);
    const hash = await chain.walletClient.deployContract({ abi, bytecode, args });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${name} failed in transaction ${hash}`);
    return getAddress(receipt.contractAddress);
  };
  // WETH9 is reached only by native-coin paths, which nothing here takes: a token stands in for its address.
  const weth = getAddress(await chain.deployToken({ symbol: 'WETH', decimals: 18, name: 'Wrapped Ether (local test token)' }));
  const factory = await deploy('UniswapV3Factory', []);
  await send(chain, factory, factoryAbi, 'enableFeeAmount', [LOW_FEE_TIER.fee, LOW_FEE_TIER.tickSpacing]);
  const positionManager = await deploy('NonfungiblePositionManager', [factory, weth, zeroAddress]);
  const [swapRouter, quoter] = [
    await deploy('SwapRouter02', [zeroAddress, factory, positionManager, weth]),
    await deploy('QuoterV2', [factory, weth]),
  ];
  return { factory, swapRouter, quoter, positionManager };
}

/**
 * Creates the tokens' pool at `fee`, starts it at 1:1 after decimals and adds `wholeTokens` of each, minted to
 * account 0, within `tickRange` ticks of par. Returns the pool's address.
 */
export async function seedPool(chain: LocalChain, uniswap: UniswapV3, options: SeedPoolOptions): Promise<Address> {
  const [token0, token1] =
    BigInt(options.tokenA) < BigInt(options.tokenB) ? [options.tokenA, options.tokenB] : [options.tokenB, options.tokenA];
  const decimals = (token: Address) => chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' });
  const [decimals0, decimals1] = [await decimals(token0), await decimals(token1)];
  const read = { address: uniswap.factory, abi: factoryAbi } as const;

  await send(chain, uniswap.factory, factoryAbi, 'createPool', [token0, token1, options.fee]);
  const pool = getAddress(await chain.publicClient.readContract({ ...read, functionName: 'getPool', args: [token0, token1, options.fee] }));
  await send(chain, pool, poolAbi, 'initialize', [sqrtPriceX96AtPar(decimals0, decimals1)]);

  const spacing = await chain.publicClient.readContract({ ...read, functionName: 'feeAmountTickSpacing', args: [options.fee] });
  const par = parTick(decimals0, decimals1);
  const range = options.tickRange ?? 100;
  const tickLower = Math.floor((par - range) / spacing) * spacing;
  const tickUpper = Math.ceil((par + range) / spacing) * spacing;

  const deployer = chain.walletClient.account.address;
  const amount0 = options.wholeTokens * 10n ** BigInt(decimals0);
  const amount1 = options.wholeTokens * 10n ** BigInt(decimals1);
  for (const [token, amount] of [
    [token0, amount0],
    [token1, amount1],
  ] as const) {
    await chain.mint(token, deployer, amount);
    await send(chain, token, erc20Abi, 'approve', [uniswap.positionManager, amount]);
  }
  await send(chain, uniswap.positionManager, positionManagerAbi, 'mint', [
    {
      token0,
      token1,
      fee: options.fee,
      tickLower,
      tickUpper,
      amount0Desired: amount0,
      amount1Desired: amount1,
      amount0Min: 0n,
      amount1Min: 0n,
      recipient: deployer,
      deadline: maxUint256,
    },
  ]);
  return pool;
}

/** √(token1 per token0 in base units) in Q64.96: 2^96 when the decimals match. */
export function sqrtPriceX96AtPar(decimals0: number, decimals1: number): bigint {
  const q192 = 1n << 192n;
  const scaled = decimals1 >= decimals0 ? q192 * 10n ** BigInt(decimals1 - decimals0) : q192 / 10n ** BigInt(decimals0 - decimals1);
  return integerSqrt(scaled);
}

function parTick(decimals0: number, decimals1: number): number {
  return Math.round(((decimals1 - decimals0) * Math.log(10)) / Math.log(1.0001));
}

function integerSqrt(value: bigint): bigint {
  if (value < 2n) return value;
  let x = value;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + value / x) / 2n;
  }
  return x;
}

async function send(chain: LocalChain, address: Address, abi: Abi, functionName: string, args: readonly unknown[]): Promise<void> {
  const hash = await chain.walletClient.writeContract({ address, abi, functionName, args } as never);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`${functionName} on ${address} reverted in transaction ${hash}`);
}
