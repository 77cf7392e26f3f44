// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20Balance} from "./DepositForwarder.sol";
import {SweeperRoles} from "./SweeperRoles.sol";

interface IERC20Approve {
    function approve(address spender, uint256 value) external returns (bool);
}

interface ITokenMessengerV2 {
    function depositForBurn(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold
    ) external;
}

/// @notice Where every DepositFactory sweep lands. Its USDC leaves only by a CCTP V2 burn to Solana (domain 5) whose
/// mint recipient is the treasury's USDC token account, so a stolen sweeper (relayer) key can move deposits into
/// the collector and on to the treasury, nowhere else. The owner alone may withdraw, for tokens and chains CCTP
/// does not carry. Deployed through the deterministic deployment proxy with the same arguments on every chain,
/// hence at the same address, which is also what the factory's address and every deposit address depend on.
contract DepositCollector is SweeperRoles {
    uint32 public constant SOLANA_DOMAIN = 5;

    address public immutable tokenMessenger;

    /// The treasury's USDC token account (32 bytes of its Solana address), not its owner's wallet: CCTP mints to
    /// a token account. Settable, so rotating the treasury moves no deposit address.
    bytes32 public mintRecipient;

    event Burned(address indexed token, uint256 amount, uint256 maxFee, uint32 minFinalityThreshold, bytes32 mintRecipient);
    event Withdrawn(address indexed token, address indexed to, uint256 amount);
    event MintRecipientSet(bytes32 mintRecipient);
    error ZeroMintRecipient();
    error ApproveFailed(address token);
    error TransferFailed(address token);

    constructor(address tokenMessenger_, bytes32 mintRecipient_, address owner_, address initialSweeper) SweeperRoles(owner_, initialSweeper) {
        if (mintRecipient_ == bytes32(0)) revert ZeroMintRecipient();
        // No check that the messenger has code: on a chain CCTP does not reach (bsc) it has none, and the collector
        // must still deploy there at its one address, or that chain's factory would sweep to an address where no
        // contract can ever be. Its burns revert there (a call to an address without code does); the owner withdraws.
        tokenMessenger = tokenMessenger_;
        mintRecipient = mintRecipient_;
        emit MintRecipientSet(mintRecipient_);
    }

    /// Native-coin sweeps (DepositFactory.sweepMany with token 0) land here; only the owner moves them on.
    receive() external payable {}

    /// Burns `amount` of `token` to the treasury on Solana: approve, then TokenMessengerV2.depositForBurn with
    /// destinationCaller 0 (anyone may complete the mint). The messenger checks amount, fee and token and pulls
    /// exactly `amount`, so nothing stays approved after a burn.
    function burn(address token, uint256 amount, uint256 maxFee, uint32 minFinalityThreshold) external onlySweeper {
        bytes32 recipient = mintRecipient;
        // approve(address,uint256); low-level so a token without a return value works too.
        (bool ok, bytes memory returned) = token.call(abi.encodeWithSelector(0x095ea7b3, tokenMessenger, amount));
        if (!ok || (returned.length > 0 && !abi.decode(returned, (bool)))) revert ApproveFailed(token);
        ITokenMessengerV2(tokenMessenger).depositForBurn(amount, SOLANA_DOMAIN, recipient, token, bytes32(0), maxFee, minFinalityThreshold);
        emit Burned(token, amount, maxFee, minFinalityThreshold, recipient);
    }

    /// `token` address(0): the native coin. For what CCTP does not carry (USDT, bsc) until its route exists.
    function withdraw(address token, address to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert ZeroAddress();
        bool ok;
        if (token == address(0)) {
            (ok,) = to.call{value: amount}("");
        } else {
            // Judged by what left, not by what transfer(address,uint256) returned: Ethereum USDT returns nothing and
            // Tron USDT `false` on success. A fee-on-transfer token debits `amount` here whatever `to` receives.
            uint256 before = IERC20Balance(token).balanceOf(address(this));
            (ok,) = token.call(abi.encodeWithSelector(0xa9059cbb, to, amount));
            uint256 remaining = IERC20Balance(token).balanceOf(address(this));
            ok = ok && remaining <= before && before - remaining == amount;
        }
        if (!ok) revert TransferFailed(token);
        emit Withdrawn(token, to, amount);
    }

    function setMintRecipient(bytes32 mintRecipient_) external onlyOwner {
        if (mintRecipient_ == bytes32(0)) revert ZeroMintRecipient();
        mintRecipient = mintRecipient_;
        emit MintRecipientSet(mintRecipient_);
    }
}
