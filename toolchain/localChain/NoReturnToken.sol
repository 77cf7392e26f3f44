// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestToken} from "./TestToken.sol";

/// @notice Test-only token whose `transfer` returns nothing, as Ethereum's USDT (TetherToken) does. A caller that
/// decodes a bool from it (Solidity's IERC20 interface) reverts; the deposit forwarder must not.
contract NoReturnToken is TestToken {
    constructor(string memory name_, string memory symbol_, uint8 decimals_) TestToken(name_, symbol_, decimals_) {}

    function transfer(address to, uint256 value) external override returns (bool) {
        _transfer(msg.sender, to, value);
        assembly {
            return(0, 0)
        }
    }
}
