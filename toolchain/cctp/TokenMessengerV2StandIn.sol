// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// Stand-ins for Circle's MessageTransmitterV2 and TokenMessengerV2 (circlefin/evm-cctp-contracts, src/v2) on a
// local chain. They keep the real ABI of what this service calls and reads (depositForBurn, getMinFeeAmount,
// localMessageTransmitter, MessageSent, DepositForBurn) and emit byte-exact V2 messages, with the real
// contracts' checks on a burn. Left out: proxies, roles, pausing, denylists, burn limits, hooks and the receive
// side. Never deploy these anywhere real.

interface IBurnableToken {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function burn(uint256 value) external;
}

contract MessageTransmitterV2StandIn {
    /// Same event as BaseMessageTransmitter's: the only place a burn's message is published on chain.
    event MessageSent(bytes message);

    uint32 public constant version = 1;
    uint32 public immutable localDomain;

    constructor(uint32 localDomain_) {
        localDomain = localDomain_;
    }

    /// MessageV2._formatMessageForRelay: nonce and finalityThresholdExecuted stay zero, Iris fills them.
    function sendMessage(
        uint32 destinationDomain,
        bytes32 recipient,
        bytes32 destinationCaller,
        uint32 minFinalityThreshold,
        bytes calldata messageBody
    ) external {
        require(destinationDomain != localDomain, "Domain is local domain");
        require(recipient != bytes32(0), "Recipient must be nonzero");
        emit MessageSent(
            abi.encodePacked(
                version,
                localDomain,
                destinationDomain,
                bytes32(0),
                bytes32(uint256(uint160(msg.sender))),
                recipient,
                destinationCaller,
                minFinalityThreshold,
                uint32(0),
                messageBody
            )
        );
    }
}

contract TokenMessengerV2StandIn {
    event DepositForBurn(
        address indexed burnToken,
        uint256 amount,
        address indexed depositor,
        bytes32 mintRecipient,
        uint32 destinationDomain,
        bytes32 destinationTokenMessenger,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 indexed minFinalityThreshold,
        bytes hookData
    );

    uint256 public constant MIN_FEE_MULTIPLIER = 10_000_000;
    uint32 public constant messageBodyVersion = 1;

    address public immutable localMessageTransmitter;
    address public immutable supportedBurnToken;
    uint32 public immutable remoteDomain;
    bytes32 public immutable remoteTokenMessenger;
    /// In MIN_FEE_MULTIPLIER units of the amount (1000 = 1 bps), as the real contract's `minFee`.
    uint256 public immutable minFee;

    constructor(address transmitter, address burnToken, uint32 remoteDomain_, bytes32 remoteTokenMessenger_, uint256 minFee_) {
        localMessageTransmitter = transmitter;
        supportedBurnToken = burnToken;
        remoteDomain = remoteDomain_;
        remoteTokenMessenger = remoteTokenMessenger_;
        minFee = minFee_;
    }

    function depositForBurn(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold
    ) external {
        require(amount > 0, "Amount must be nonzero");
        require(mintRecipient != bytes32(0), "Mint recipient must be nonzero");
        require(maxFee < amount, "Max fee must be less than amount");
        if (minFee > 0) require(maxFee >= _calcMinFeeAmount(amount), "Insufficient max fee");
        require(destinationDomain == remoteDomain, "No TokenMessenger for domain");
        require(burnToken == supportedBurnToken, "Burn token not supported");

        // The real messenger hands the tokens to its TokenMinter, which burns them; this one is its own minter.
        require(IBurnableToken(burnToken).transferFrom(msg.sender, address(this), amount), "Transfer operation failed");
        IBurnableToken(burnToken).burn(amount);

        bytes memory burnMessage = abi.encodePacked(
            messageBodyVersion,
            bytes32(uint256(uint160(burnToken))),
            mintRecipient,
            amount,
            bytes32(uint256(uint160(msg.sender))),
            maxFee,
            uint256(0),
            uint256(0)
        );
        MessageTransmitterV2StandIn(localMessageTransmitter).sendMessage(
            destinationDomain,
            remoteTokenMessenger,
            destinationCaller,
            minFinalityThreshold,
            burnMessage
        );
        emit DepositForBurn(
            burnToken,
            amount,
            msg.sender,
            mintRecipient,
            destinationDomain,
            remoteTokenMessenger,
            destinationCaller,
            maxFee,
            minFinalityThreshold,
            ""
        );
    }

    function getMinFeeAmount(uint256 amount) external view returns (uint256) {
        if (minFee == 0) return 0;
        require(amount > 1, "Amount too low");
        return _calcMinFeeAmount(amount);
    }

    function _calcMinFeeAmount(uint256 amount) private view returns (uint256) {
        uint256 minFeeAmount = (amount * minFee) / MIN_FEE_MULTIPLIER;
        return minFeeAmount == 0 ? 1 : minFeeAmount;
    }
}
