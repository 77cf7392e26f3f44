// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {DepositForwarder, IERC20Balance} from "./DepositForwarder.sol";
import {MinimalProxy} from "./MinimalProxy.sol";
import {SweeperRoles} from "./SweeperRoles.sol";

/// @notice Deploys and sweeps deposit addresses: EIP-1167 clones of one DepositForwarder, at
/// CREATE2(this, salt, clone init code). Deployed through the deterministic deployment proxy with the same
/// constructor arguments on every EVM chain, so a salt gives the same deposit address on every chain.
/// Whatever is swept goes to the immutable collector and nowhere else: a stolen sweeper key can spend the
/// relayer's gas, never redirect a deposit.
contract DepositFactory is SweeperRoles {
    address public immutable implementation;
    address public immutable collector;
    bytes32 private immutable CLONE_INIT_CODE_HASH;

    /// Set for the length of a sweep: the amounts are balance deltas of the collector, which a nested sweep
    /// (a hostile token or collector calling back) would count twice. Transient (EIP-1153): no lasting storage.
    bool private transient sweeping;

    /// One per salt of a sweep, also when nothing was there (amount 0), so every salt asked for is accounted for.
    /// `amount` is what the collector received, which for a fee-on-transfer token is less than what left.
    event Swept(bytes32 indexed salt, address indexed forwarder, address indexed token, uint256 amount);
    error NoImplementationCode(address implementation);
    error Reentered();
    error CloneFailed(bytes32 salt);

    constructor(address implementation_, address collector_, address owner_, address initialSweeper) SweeperRoles(owner_, initialSweeper) {
        if (collector_ == address(0)) revert ZeroAddress();
        // A factory over an address without code would hand out deposit addresses no clone could ever serve.
        if (implementation_.code.length == 0) revert NoImplementationCode(implementation_);
        implementation = implementation_;
        collector = collector_;
        CLONE_INIT_CODE_HASH = keccak256(MinimalProxy.initCode(implementation_));
    }

    function addressOf(bytes32 salt) public view returns (address) {
        return MinimalProxy.predict(address(this), salt, CLONE_INIT_CODE_HASH);
    }

    /// Moves the whole balance of `token` (address(0): the native coin) of each salt's deposit address to the
    /// collector, deploying the clone first where the address has no code yet. A clone that cannot pay reverts
    /// the whole call with its salt, so a Swept event always means the amount arrived.
    function sweepMany(bytes32[] calldata salts, address token) external onlySweeper {
        if (sweeping) revert Reentered();
        sweeping = true;
        // Each salt's amount is the growth since the previous one's: one balance read per salt, not two.
        uint256 collected = _collectorBalance(token);
        for (uint256 i = 0; i < salts.length; i++) {
            bytes32 salt = salts[i];
            address forwarder = addressOf(salt);
            if (forwarder.code.length == 0) _deployClone(salt);
            DepositForwarder(payable(forwarder)).sweep(salt, token, collector);
            uint256 now_ = _collectorBalance(token);
            emit Swept(salt, forwarder, token, now_ - collected);
            collected = now_;
        }
        sweeping = false;
    }

    function _deployClone(bytes32 salt) private {
        bytes memory code = MinimalProxy.initCode(implementation);
        address clone;
        assembly ("memory-safe") {
            clone := create2(0, add(code, 0x20), mload(code), salt)
        }
        if (clone == address(0)) revert CloneFailed(salt);
    }

    function _collectorBalance(address token) private view returns (uint256) {
        if (token == address(0)) return collector.balance;
        return IERC20Balance(token).balanceOf(collector);
    }
}
