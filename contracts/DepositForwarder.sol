// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {MinimalProxy} from "./MinimalProxy.sol";

interface IERC20Balance {
    function balanceOf(address account) external view returns (uint256);
}

/// @notice The code behind every deposit address. Each deposit address is an EIP-1167 clone of this contract that
/// its DepositFactory deploys by CREATE2 on the first sweep. A clone holds no state and knows no owner: it moves its
/// whole balance of one token (or of the native coin) to where its factory says, and only its own factory may ask.
contract DepositForwarder {
    /// keccak256 of the init code of clones of this implementation. An immutable lives in the implementation's
    /// code, so every clone reads it through DELEGATECALL without a storage slot or an initialiser.
    bytes32 private immutable CLONE_INIT_CODE_HASH;

    error NotFactory(address caller);
    error TransferFailed(address token);

    constructor() {
        CLONE_INIT_CODE_HASH = keccak256(MinimalProxy.initCode(address(this)));
    }

    /// Native-coin deposits to a deployed clone. Senders that forward only the 2300-gas stipend (Solidity's
    /// `transfer`) cannot pay a deployed clone, as with any EIP-1167 proxy; before the first sweep there is no
    /// code at the address and every sender can.
    receive() external payable {}

    /// Sends this clone's whole balance of `token` (address(0): the native coin) to `to`. The caller proves it
    /// is the factory that deployed this clone with `salt`: the address it would have deployed must be this one.
    /// That keeps clones stateless, and no other contract, however it is called, can move a deposit.
    /// Token calls are low-level and their return value ignored: Ethereum USDT returns nothing and Tron USDT
    /// returns false on success; the factory measures what arrived instead.
    function sweep(bytes32 salt, address token, address to) external {
        if (MinimalProxy.predict(msg.sender, salt, CLONE_INIT_CODE_HASH) != address(this)) revert NotFactory(msg.sender);
        bool ok;
        if (token == address(0)) {
            uint256 amount = address(this).balance;
            if (amount == 0) return;
            (ok,) = to.call{value: amount}("");
        } else {
            uint256 amount = IERC20Balance(token).balanceOf(address(this));
            if (amount == 0) return;
            // transfer(address,uint256)
            (ok,) = token.call(abi.encodeWithSelector(0xa9059cbb, to, amount));
        }
        if (!ok) revert TransferFailed(token);
    }
}
