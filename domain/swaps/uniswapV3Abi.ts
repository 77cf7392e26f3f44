// The two Uniswap V3 entry points the swap path reads and calls, as their deployed contracts declare them:
// QuoterV2 (v3-periphery) prices a swap by simulating it; SwapRouter02 (swap-router-contracts) is what
// DepositCollector.swap calls, whose params, unlike the first SwapRouter's, carry no deadline.
import { parseAbi } from 'viem';

export const quoterV2Abi = parseAbi([
  'struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }',
  'function quoteExactInputSingle(QuoteExactInputSingleParams params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
]);

export const swapRouter02Abi = parseAbi([
  'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
]);
