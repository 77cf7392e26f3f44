// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface Token {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @notice Test-only misbehaving SwapRouter02: pulls half of amountIn, delivers amountOutMinimum of tokenOut from
/// its own balance only when `deliver`, and always reports the most it could.
contract FakeSwapRouter {
    struct ExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint24 fee;
        address recipient;
        uint256 amountIn;
        uint256 amountOutMinimum;
        uint160 sqrtPriceLimitX96;
    }

    bool public immutable deliver;

    constructor(bool deliver_) {
        deliver = deliver_;
    }

    function exactInputSingle(ExactInputSingleParams calldata params) external payable returns (uint256) {
        Token(params.tokenIn).transferFrom(msg.sender, address(this), params.amountIn / 2);
        if (deliver) Token(params.tokenOut).transfer(params.recipient, params.amountOutMinimum);
        return type(uint256).max;
    }
}
