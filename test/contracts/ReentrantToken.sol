// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {TestToken} from "./TestToken.sol";

interface Sweeps {
    function sweepMany(bytes32[] calldata salts, address token) external;
}

/// @notice Test-only hostile token: while a deposit forwarder transfers it, it calls back into the factory's
/// sweepMany (the test makes it a sweeper) and keeps the revert reason it gets, then completes the transfer.
contract ReentrantToken is TestToken {
    Sweeps public factory;
    bytes32 public reentrySalt;
    bytes public reentryError;
    bool private entered;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) TestToken(name_, symbol_, decimals_) {}

    function arm(Sweeps factory_, bytes32 salt) external {
        factory = factory_;
        reentrySalt = salt;
    }

    function transfer(address to, uint256 value) external override returns (bool) {
        if (address(factory) != address(0) && !entered) {
            entered = true;
            bytes32[] memory salts = new bytes32[](1);
            salts[0] = reentrySalt;
            try factory.sweepMany(salts, address(this)) {} catch (bytes memory reason) {
                reentryError = reason;
            }
            entered = false;
        }
        _transfer(msg.sender, to, value);
        return true;
    }
}
