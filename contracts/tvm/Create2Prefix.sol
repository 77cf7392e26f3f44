// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

// The byte CREATE2 hashes before the deployer on Tron: the TVM hashes the deployer in its 21-byte account
// form (0x41 ‖ 20 bytes) and no 0xff (java-tron's WalletUtil.generateContractAddress2), so the preimage is
// EIP-1014's with 0x41 in place of 0xff. Compiled in place of contracts/Create2Prefix.sol for the TVM build.
bytes1 constant CREATE2_PREFIX = 0x41;
