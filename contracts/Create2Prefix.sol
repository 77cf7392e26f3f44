// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

// The byte CREATE2 hashes before the deployer: EIP-1014's 0xff on EVM chains. The TVM build compiles
// contracts/tvm/Create2Prefix.sol in this file's place (toolchain/solidity/contractArtifacts.ts), so one source
// serves both VMs and the EVM build's bytecode, which every EVM deposit address depends on, knows nothing of the TVM.
bytes1 constant CREATE2_PREFIX = 0xff;
