// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestToken} from "./TestToken.sol";

/// @notice Test-only TRC-20 shaped like Tron USDT (TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t), whose
/// StandardTokenWithFees.transfer declares `returns (bool)` and has no return statement: the tokens move and the
/// call returns false. A contract that trusts the return value can never move it.
contract ReturnsFalseToken is TestToken {
    constructor() TestToken("Tether USD", "USDT", 6) {}

    function transfer(address to, uint256 value) external override returns (bool) {
        _transfer(msg.sender, to, value);
    }
}
