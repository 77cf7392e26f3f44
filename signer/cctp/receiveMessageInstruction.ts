// The Solana half of a CCTP V2 transfer: MessageTransmitterV2 `receive_message` for an attested USDC burn, built
// on @solana/kit from the message and attestation the attestation API returned (never from the EVM log: the
// attestation service fills the nonce and fees). The accounts are domain/cctp/receiveMessageAccounts.ts'; the
// fee recipient is read from the chain's TokenMessenger account, as Circle's example does, because the program
// checks it against that account.
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { getAddressDecoder, type Address, type GetAccountInfoApi, type Instruction, type Rpc, type TransactionSigner } from '@solana/kit';
import { hexToBytes, toHex } from 'viem';
import { decodeBurnMessageV2, decodeMessageV2 } from '../../domain/cctp/messageV2';
import {
  MESSAGE_TRANSMITTER_V2_PROGRAM,
  receiveMessageAccounts,
  receiveMessageData,
  receiveMessagePdas,
  SOLANA_CCTP_DOMAIN,
  tokenMessengerFeeRecipient,
  tokenMessengerPda,
  TOKEN_MESSENGER_MINTER_V2_PROGRAM,
} from '../../domain/cctp/receiveMessageAccounts';

export interface ReceiveMessageInput {
  /** Pays the used_nonce account's rent and signs as caller (the service's burns name no destinationCaller). */
  payer: TransactionSigner;
  message: Uint8Array;
  attestation: Uint8Array;
  usdcMint: Address;
  /** The TokenMessenger fee recipient's associated USDC account: feeRecipientTokenAccount(). */
  feeRecipientTokenAccount: Address;
}

/** The USDC account TokenMessengerMinterV2 pays Fast-transfer fees into, from its TokenMessenger account on chain. */
export async function feeRecipientTokenAccount(rpc: Rpc<GetAccountInfoApi>, usdcMint: Address): Promise<Address> {
  const { value } = await rpc.getAccountInfo(await tokenMessengerPda(), { encoding: 'base64' }).send();
  if (!value || value.owner !== TOKEN_MESSENGER_MINTER_V2_PROGRAM) {
    throw new Error('the chain has no TokenMessengerMinterV2 TokenMessenger account');
  }
  const feeRecipient = tokenMessengerFeeRecipient(Buffer.from(value.data[0], 'base64'));
  const [account] = await findAssociatedTokenPda({ owner: feeRecipient, mint: usdcMint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return account;
}

/** Refuses a message not bound for Solana: the program would fail it after the payer paid the fee. */
export async function receiveMessageInstruction(input: ReceiveMessageInput): Promise<Instruction> {
  const message = decodeMessageV2(toHex(input.message));
  if (message.destinationDomain !== SOLANA_CCTP_DOMAIN)
    throw new Error(`the CCTP message is for domain ${message.destinationDomain}, not Solana's ${SOLANA_CCTP_DOMAIN}`);
  const burn = decodeBurnMessageV2(message.messageBody);
  const pdas = await receiveMessagePdas({
    nonce: hexToBytes(message.nonce),
    sourceDomain: message.sourceDomain,
    burnToken: hexToBytes(burn.burnToken),
    usdcMint: input.usdcMint,
  });
  const accounts = receiveMessageAccounts({
    pdas,
    payer: input.payer.address,
    caller: input.payer.address,
    feeRecipientTokenAccount: input.feeRecipientTokenAccount,
    recipientTokenAccount: getAddressDecoder().decode(hexToBytes(burn.mintRecipient)),
  });
  return {
    programAddress: MESSAGE_TRANSMITTER_V2_PROGRAM,
    // The payer signs both signer slots; kit's signer collection finds it through `signer`.
    accounts: accounts.map(({ address, role }, index) => (index < 2 ? { address, role, signer: input.payer } : { address, role })),
    data: receiveMessageData(input.message, input.attestation),
  };
}
