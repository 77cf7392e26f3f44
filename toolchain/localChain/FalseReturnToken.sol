// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestToken} from "./TestToken.sol";

/// @notice Test-only token whose `transfer` moves the tokens and then returns false, as Tron's USDT does. A caller
/// that trusts the returned bool (OpenZeppelin's SafeERC20) reverts on a transfer that happened; the deposit
/// forwarder must measure balances instead.
contract FalseReturnToken is TestToken {
    constructor(string memory name_, string memory symbol_, uint8 decimals_) TestToken(name_, symbol_, decimals_) {}

    function transfer(address to, uint256 value) external override returns (bool) {
        _transfer(msg.sender, to, value);
        return false;
    }
}
