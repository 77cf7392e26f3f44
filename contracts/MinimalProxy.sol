// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {CREATE2_PREFIX} from "./Create2Prefix.sol";

/// @notice EIP-1167 minimal proxies deployed by CREATE2 (EIP-1014, or the TVM's variant of it). The init code holds
/// only the implementation's address, so a clone's address depends on (deployer, salt, implementation) alone and can
/// be computed offline: the service hands out deposit addresses long before anything is deployed there.
library MinimalProxy {
    /// The EIP-1167 init code for `implementation` (the bytes OpenZeppelin's Clones.sol deploys).
    function initCode(address implementation) internal pure returns (bytes memory) {
        return abi.encodePacked(
            hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", implementation, hex"5af43d82803e903d91602b57fd5bf3"
        );
    }

    /// keccak256(prefix ‖ deployer ‖ salt ‖ keccak256(init code))[12:], the prefix being the VM's
    /// (Create2Prefix.sol): 0xff by EIP-1014, 0x41 on the TVM.
    function predict(address deployer, bytes32 salt, bytes32 initCodeHash) internal pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(CREATE2_PREFIX, deployer, salt, initCodeHash)))));
    }
}
