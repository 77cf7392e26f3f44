// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice The roles DepositFactory and DepositCollector share: an owner, who adds and removes sweepers (the
/// relayer's keys) and hands ownership on in two steps, and the sweepers, who alone may move funds along the one
/// path each contract allows.
abstract contract SweeperRoles {
    address public owner;
    address public pendingOwner;
    mapping(address => bool) public isSweeper;

    event SweeperSet(address indexed sweeper, bool allowed);
    event OwnershipTransferStarted(address indexed previousOwner, address indexed newOwner);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error ZeroAddress();
    error NotSweeper(address caller);
    error NotOwner(address caller);
    error NotPendingOwner(address caller);

    /// `owner_` and `initialSweeper` are arguments, not msg.sender: through the deployment proxy msg.sender is the
    /// proxy, and anyone may deploy, so nobody gains a role by deploying.
    constructor(address owner_, address initialSweeper) {
        if (owner_ == address(0) || initialSweeper == address(0)) revert ZeroAddress();
        owner = owner_;
        emit OwnershipTransferred(address(0), owner_);
        isSweeper[initialSweeper] = true;
        emit SweeperSet(initialSweeper, true);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    modifier onlySweeper() {
        if (!isSweeper[msg.sender]) revert NotSweeper(msg.sender);
        _;
    }

    function setSweeper(address sweeper, bool allowed) external onlyOwner {
        if (sweeper == address(0)) revert ZeroAddress();
        isSweeper[sweeper] = allowed;
        emit SweeperSet(sweeper, allowed);
    }

    /// Two steps: a mistyped owner would leave sweepers unrevocable (and, for the collector, withdrawals and the
    /// mint recipient locked) forever, so the new owner must prove it can sign. Ownership is per chain and moves no
    /// address (the constructor's owner_ fixed those).
    function transferOwnership(address newOwner) external onlyOwner {
        pendingOwner = newOwner;
        emit OwnershipTransferStarted(owner, newOwner);
    }

    function acceptOwnership() external {
        if (msg.sender != pendingOwner) revert NotPendingOwner(msg.sender);
        emit OwnershipTransferred(owner, msg.sender);
        owner = msg.sender;
        pendingOwner = address(0);
    }
}
