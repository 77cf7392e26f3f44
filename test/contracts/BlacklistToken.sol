// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestToken} from "./TestToken.sol";

/// @notice Test-only token that, like USDC and USDT, refuses every transfer from or to an address its owner
/// blacklisted: a forwarder holding it can never be swept, and its sweepMany reverts with it.
contract BlacklistToken is TestToken {
    mapping(address => bool) public blacklisted;

    error Blacklisted(address account);

    constructor() TestToken("Blacklisting USD", "USDC", 6) {}

    function setBlacklisted(address account, bool value) external {
        blacklisted[account] = value;
    }

    function transfer(address to, uint256 value) external override returns (bool) {
        if (blacklisted[msg.sender]) revert Blacklisted(msg.sender);
        if (blacklisted[to]) revert Blacklisted(to);
        _transfer(msg.sender, to, value);
        return true;
    }
}
