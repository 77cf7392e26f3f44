// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20Balance} from "./DepositForwarder.sol";
import {SweeperRoles} from "./SweeperRoles.sol";

interface IERC20Decimals {
    function decimals() external view returns (uint8);
}

interface IERC20Allowance {
    function allowance(address owner, address spender) external view returns (uint256);
}

/// Uniswap's SwapRouter02 (IV3SwapRouter): unlike the first SwapRouter, its params carry no deadline.
interface ISwapRouter02 {
    struct ExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint24 fee;
        address recipient;
        uint256 amountIn;
        uint256 amountOutMinimum;
        uint160 sqrtPriceLimitX96;
    }

    function exactInputSingle(ExactInputSingleParams calldata params) external payable returns (uint256 amountOut);
}

interface ITokenMessengerV2 {
    function depositForBurn(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold
    ) external;
}

/// @notice Where every DepositFactory sweep lands. Its USDC leaves only by a CCTP V2 burn to Solana (domain 5) whose
/// mint recipient is the treasury's USDC token account, so a stolen sweeper (relayer) key can move deposits into
/// the collector and on to the treasury, nowhere else. A sweeper may also swap a token into the owner-set
/// `swapTokenOut` (the chain's USDC) through the owner-set router, for no less than 1:1 (after decimals) less the
/// owner-set deviation, and send held inventory to the owner-set `rebalanceAddress`, and nowhere else. The owner
/// alone may withdraw anywhere, for tokens and chains neither path serves. Deployed through the deterministic deployment proxy with the same arguments on every chain,
/// hence at the same address, which is also what the factory's address and every deposit address depend on.
contract DepositCollector is SweeperRoles {
    uint32 public constant SOLANA_DOMAIN = 5;

    address public immutable tokenMessenger;

    /// The treasury's USDC token account (32 bytes of its Solana address), not its owner's wallet: CCTP mints to
    /// a token account. Settable, so rotating the treasury moves no deposit address.
    bytes32 public mintRecipient;

    /// SwapRouter02 on this chain; unset (0) where no swap route exists, and then every swap reverts.
    address public swapRouter;
    /// What every swap buys: the chain's USDC, which the next burn carries to the treasury.
    address public swapTokenOut;
    /// How far below 1:1 (after decimals) a swap's minimum out may be. 0 until the owner sets it: no swap clears a
    /// pool fee at 0, so swaps wait for an explicit choice.
    uint16 public maxSwapDeviationBps;
    /// The one address `rebalance` pays: the operator's rebalancing wallet on this chain.
    address public rebalanceAddress;

    event Burned(address indexed token, uint256 amount, uint256 maxFee, uint32 minFinalityThreshold, bytes32 mintRecipient);
    event Withdrawn(address indexed token, address indexed to, uint256 amount);
    event MintRecipientSet(bytes32 mintRecipient);
    event Swapped(address indexed tokenIn, uint256 amountIn, uint256 amountOut);
    event Rebalanced(address indexed token, address indexed to, uint256 amount);
    event SwapRouterSet(address swapRouter);
    event SwapTokenOutSet(address swapTokenOut);
    event MaxSwapDeviationBpsSet(uint16 maxSwapDeviationBps);
    event RebalanceAddressSet(address rebalanceAddress);
    error ZeroMintRecipient();
    error ApproveFailed(address token);
    error TransferFailed(address token);
    error SwapNotConfigured();
    error SwapSameToken(address token);
    error ZeroAmount();
    error MinimumOutBelowFloor(uint256 amountOutMinimum, uint256 floor);
    error SwapShortfall(uint256 amountOut, uint256 amountOutMinimum);
    error DeviationTooLarge(uint16 maxSwapDeviationBps);
    error NoRebalanceAddress();

    constructor(address tokenMessenger_, bytes32 mintRecipient_, address owner_, address initialSweeper) SweeperRoles(owner_, initialSweeper) {
        if (mintRecipient_ == bytes32(0)) revert ZeroMintRecipient();
        // No check that the messenger has code: on a chain CCTP does not reach (bsc) it has none, and the collector
        // must still deploy there at its one address, or that chain's factory would sweep to an address where no
        // contract can ever be. Its burns revert there (a call to an address without code does); the owner withdraws.
        tokenMessenger = tokenMessenger_;
        mintRecipient = mintRecipient_;
        emit MintRecipientSet(mintRecipient_);
    }

    /// Native-coin sweeps (DepositFactory.sweepMany with token 0) land here; only the owner moves them on.
    receive() external payable {}

    /// Burns `amount` of `token` to the treasury on Solana: approve, then TokenMessengerV2.depositForBurn with
    /// destinationCaller 0 (anyone may complete the mint). The messenger checks amount, fee and token and pulls
    /// exactly `amount`, so nothing stays approved after a burn.
    function burn(address token, uint256 amount, uint256 maxFee, uint32 minFinalityThreshold) external onlySweeper {
        bytes32 recipient = mintRecipient;
        approve(token, tokenMessenger, amount);
        ITokenMessengerV2(tokenMessenger).depositForBurn(amount, SOLANA_DOMAIN, recipient, token, bytes32(0), maxFee, minFinalityThreshold);
        emit Burned(token, amount, maxFee, minFinalityThreshold, recipient);
    }

    /// Sells `amountIn` of `tokenIn` for `swapTokenOut` in the router's `fee` pool, proceeds to this contract. The
    /// floor holds whatever the sweeper asks: `amountOutMinimum` is at least `amountIn` at 1:1 after the two tokens'
    /// decimals, less `maxSwapDeviationBps`, so a stolen sweeper key cannot sell inventory cheap (through a pool it
    /// moved, say). The router is approved for exactly `amountIn` and nothing stays approved after.
    function swap(address tokenIn, uint24 fee, uint256 amountIn, uint256 amountOutMinimum) external onlySweeper {
        address router = swapRouter;
        address tokenOut = swapTokenOut;
        if (router == address(0) || tokenOut == address(0)) revert SwapNotConfigured();
        if (tokenIn == tokenOut) revert SwapSameToken(tokenIn);
        // SwapRouter02 reads amountIn 0 as "the router's own balance": never what a sweeper means.
        if (amountIn == 0) revert ZeroAmount();
        uint256 floor = swapFloor(tokenIn, tokenOut, amountIn);
        if (amountOutMinimum < floor) revert MinimumOutBelowFloor(amountOutMinimum, floor);

        uint256 before = IERC20Balance(tokenOut).balanceOf(address(this));
        approve(tokenIn, router, amountIn);
        ISwapRouter02(router).exactInputSingle(
            ISwapRouter02.ExactInputSingleParams({
                tokenIn: tokenIn,
                tokenOut: tokenOut,
                fee: fee,
                recipient: address(this),
                amountIn: amountIn,
                amountOutMinimum: amountOutMinimum,
                sqrtPriceLimitX96: 0
            })
        );
        // A router that pulled less must not keep the rest of the approval (and USDT refuses a new nonzero
        // approval over a nonzero one).
        if (IERC20Allowance(tokenIn).allowance(address(this), router) != 0) approve(tokenIn, router, 0);
        // Judged by what arrived, not by what the router reports.
        uint256 amountOut = IERC20Balance(tokenOut).balanceOf(address(this)) - before;
        if (amountOut < amountOutMinimum) revert SwapShortfall(amountOut, amountOutMinimum);
        emit Swapped(tokenIn, amountIn, amountOut);
    }

    /// The least a swap of `amountIn` of `tokenIn` may ask for: 1:1 after decimals, less `maxSwapDeviationBps`.
    function swapFloor(address tokenIn, address tokenOut, uint256 amountIn) public view returns (uint256) {
        uint8 decimalsIn = IERC20Decimals(tokenIn).decimals();
        uint8 decimalsOut = IERC20Decimals(tokenOut).decimals();
        uint256 atPar = decimalsOut >= decimalsIn
            ? amountIn * 10 ** (decimalsOut - decimalsIn)
            : amountIn / 10 ** (decimalsIn - decimalsOut);
        return (atPar * (10_000 - maxSwapDeviationBps)) / 10_000;
    }

    /// Held inventory (a token no route carries) to the operator's rebalancing wallet, the only place it may go.
    /// `token` address(0): the native coin.
    function rebalance(address token, uint256 amount) external onlySweeper {
        address to = rebalanceAddress;
        if (to == address(0)) revert NoRebalanceAddress();
        send(token, to, amount);
        emit Rebalanced(token, to, amount);
    }

    /// `token` address(0): the native coin. For what no route carries, to anywhere.
    function withdraw(address token, address to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert ZeroAddress();
        send(token, to, amount);
        emit Withdrawn(token, to, amount);
    }

    function setMintRecipient(bytes32 mintRecipient_) external onlyOwner {
        if (mintRecipient_ == bytes32(0)) revert ZeroMintRecipient();
        mintRecipient = mintRecipient_;
        emit MintRecipientSet(mintRecipient_);
    }

    /// 0 turns swaps off.
    function setSwapRouter(address swapRouter_) external onlyOwner {
        swapRouter = swapRouter_;
        emit SwapRouterSet(swapRouter_);
    }

    function setSwapTokenOut(address swapTokenOut_) external onlyOwner {
        swapTokenOut = swapTokenOut_;
        emit SwapTokenOutSet(swapTokenOut_);
    }

    function setMaxSwapDeviationBps(uint16 maxSwapDeviationBps_) external onlyOwner {
        if (maxSwapDeviationBps_ > 10_000) revert DeviationTooLarge(maxSwapDeviationBps_);
        maxSwapDeviationBps = maxSwapDeviationBps_;
        emit MaxSwapDeviationBpsSet(maxSwapDeviationBps_);
    }

    /// 0 turns rebalancing off.
    function setRebalanceAddress(address rebalanceAddress_) external onlyOwner {
        rebalanceAddress = rebalanceAddress_;
        emit RebalanceAddressSet(rebalanceAddress_);
    }

    // approve(address,uint256); low-level so a token without a return value works too.
    function approve(address token, address spender, uint256 amount) private {
        (bool ok, bytes memory returned) = token.call(abi.encodeWithSelector(0x095ea7b3, spender, amount));
        if (!ok || (returned.length > 0 && !abi.decode(returned, (bool)))) revert ApproveFailed(token);
    }

    function send(address token, address to, uint256 amount) private {
        bool ok;
        if (token == address(0)) {
            (ok,) = to.call{value: amount}("");
        } else {
            // Judged by what left, not by what transfer(address,uint256) returned: Ethereum USDT returns nothing and
            // Tron USDT `false` on success. A fee-on-transfer token debits `amount` here whatever `to` receives.
            uint256 before = IERC20Balance(token).balanceOf(address(this));
            (ok,) = token.call(abi.encodeWithSelector(0xa9059cbb, to, amount));
            uint256 remaining = IERC20Balance(token).balanceOf(address(this));
            ok = ok && remaining <= before && before - remaining == amount;
        }
        if (!ok) revert TransferFailed(token);
    }
}
