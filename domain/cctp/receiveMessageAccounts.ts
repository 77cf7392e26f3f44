// The accounts and data of MessageTransmitterV2's `receive_message` on Solana for a USDC burn, exactly as Circle's
// IDL (circlefin/solana-cctp-contracts `examples/target/idl/message_transmitter_v2.json`) and example
// (`examples/v2/solana.ts`, `examples/v2/utilsV2.ts`) give them: the instruction's own accounts in the IDL's order,
// then the remaining accounts TokenMessengerMinterV2's `handle_receive_finalized_message` needs, in the order and
// with the flags the example passes. Seeds are the programs' (`receive_message.rs`: the used nonce is the
// message's 32 nonce bytes; domains are decimal strings, as `findProgramAddress` encodes them).
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import {
  AccountRole,
  address,
  getAddressDecoder,
  getAddressEncoder,
  getProgramDerivedAddress,
  getU32Encoder,
  getUtf8Encoder,
  type Address,
  type ReadonlyUint8Array,
} from '@solana/kit';

export const MESSAGE_TRANSMITTER_V2_PROGRAM = address('CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC');
export const TOKEN_MESSENGER_MINTER_V2_PROGRAM = address('CCTPV2vPZJS2u2BBsUoscuikbYjnpFmbFsvVuJdgUMQe');
export const SYSTEM_PROGRAM = address('11111111111111111111111111111111');
/** Solana's CCTP domain: a message is received here only if it names it as destination. */
export const SOLANA_CCTP_DOMAIN = 5;
/** sha256("global:receive_message")[0..8], Anchor's instruction discriminator (the IDL's). */
export const RECEIVE_MESSAGE_DISCRIMINATOR = new Uint8Array([38, 144, 127, 225, 31, 225, 238, 25]);
/** sha256("account:UsedNonce")[0..8]: the first bytes of a used_nonce account. */
export const USED_NONCE_ACCOUNT_DISCRIMINATOR = new Uint8Array([212, 222, 157, 252, 130, 71, 179, 238]);
/** sha256("account:TokenMessenger")[0..8]. */
export const TOKEN_MESSENGER_ACCOUNT_DISCRIMINATOR = new Uint8Array([162, 4, 242, 52, 147, 243, 221, 96]);
/** TokenMessenger account: 8-byte discriminator, denylister, owner, pending_owner, message_body_version u32, authority_bump u8, then fee_recipient. */
const TOKEN_MESSENGER_FEE_RECIPIENT_OFFSET = 8 + 32 * 3 + 4 + 1;

const utf8 = getUtf8Encoder();
const addressBytes = getAddressEncoder();

async function pda(program: Address, seeds: (string | ReadonlyUint8Array)[]): Promise<Address> {
  const [found] = await getProgramDerivedAddress({
    programAddress: program,
    seeds: seeds.map((seed) => (typeof seed === 'string' ? utf8.encode(seed) : seed)),
  });
  return found;
}

export interface ReceiveMessagePdas {
  authorityPda: Address;
  messageTransmitter: Address;
  usedNonce: Address;
  eventAuthority: Address;
  tokenMessenger: Address;
  remoteTokenMessenger: Address;
  tokenMinter: Address;
  localToken: Address;
  tokenPair: Address;
  custody: Address;
  tokenMessengerEventAuthority: Address;
}

export async function usedNoncePda(nonce: Uint8Array): Promise<Address> {
  if (nonce.length !== 32) throw new Error(`a CCTP V2 nonce is 32 bytes, got ${nonce.length}`);
  return pda(MESSAGE_TRANSMITTER_V2_PROGRAM, ['used_nonce', nonce]);
}

export function tokenMessengerPda(): Promise<Address> {
  return pda(TOKEN_MESSENGER_MINTER_V2_PROGRAM, ['token_messenger']);
}

/** The PDAs of one receive: `sourceDomain` and `burnToken` (32 bytes) come from the message, `usdcMint` is the local token. */
export async function receiveMessagePdas(input: {
  nonce: Uint8Array;
  sourceDomain: number;
  burnToken: Uint8Array;
  usdcMint: Address;
}): Promise<ReceiveMessagePdas> {
  const tmm = TOKEN_MESSENGER_MINTER_V2_PROGRAM;
  const domain = String(input.sourceDomain);
  const mint = addressBytes.encode(input.usdcMint);
  return {
    authorityPda: await pda(MESSAGE_TRANSMITTER_V2_PROGRAM, ['message_transmitter_authority', addressBytes.encode(tmm)]),
    messageTransmitter: await pda(MESSAGE_TRANSMITTER_V2_PROGRAM, ['message_transmitter']),
    usedNonce: await usedNoncePda(input.nonce),
    eventAuthority: await pda(MESSAGE_TRANSMITTER_V2_PROGRAM, ['__event_authority']),
    tokenMessenger: await tokenMessengerPda(),
    remoteTokenMessenger: await pda(tmm, ['remote_token_messenger', domain]),
    tokenMinter: await pda(tmm, ['token_minter']),
    localToken: await pda(tmm, ['local_token', mint]),
    tokenPair: await pda(tmm, ['token_pair', domain, input.burnToken]),
    custody: await pda(tmm, ['custody', mint]),
    tokenMessengerEventAuthority: await pda(tmm, ['__event_authority']),
  };
}

export interface ReceiveAccount {
  /** The IDL's name (the remaining accounts: the TokenMessengerMinterV2 IDL's). */
  name: string;
  address: Address;
  role: AccountRole;
}

/**
 * In order. `payer` pays the used_nonce account's rent and `caller` must match a non-zero destinationCaller (one
 * key may be both). `recipientTokenAccount` is the message's mintRecipient; `feeRecipientTokenAccount` the
 * associated USDC account of the TokenMessenger's fee_recipient.
 */
export function receiveMessageAccounts(input: {
  pdas: ReceiveMessagePdas;
  payer: Address;
  caller: Address;
  feeRecipientTokenAccount: Address;
  recipientTokenAccount: Address;
}): ReceiveAccount[] {
  const { pdas } = input;
  return [
    { name: 'payer', address: input.payer, role: AccountRole.WRITABLE_SIGNER },
    { name: 'caller', address: input.caller, role: AccountRole.READONLY_SIGNER },
    { name: 'authority_pda', address: pdas.authorityPda, role: AccountRole.READONLY },
    { name: 'message_transmitter', address: pdas.messageTransmitter, role: AccountRole.READONLY },
    { name: 'used_nonce', address: pdas.usedNonce, role: AccountRole.WRITABLE },
    { name: 'receiver', address: TOKEN_MESSENGER_MINTER_V2_PROGRAM, role: AccountRole.READONLY },
    { name: 'system_program', address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
    { name: 'event_authority', address: pdas.eventAuthority, role: AccountRole.READONLY },
    { name: 'program', address: MESSAGE_TRANSMITTER_V2_PROGRAM, role: AccountRole.READONLY },
    { name: 'token_messenger', address: pdas.tokenMessenger, role: AccountRole.READONLY },
    { name: 'remote_token_messenger', address: pdas.remoteTokenMessenger, role: AccountRole.READONLY },
    { name: 'token_minter', address: pdas.tokenMinter, role: AccountRole.WRITABLE },
    { name: 'local_token', address: pdas.localToken, role: AccountRole.WRITABLE },
    { name: 'token_pair', address: pdas.tokenPair, role: AccountRole.READONLY },
    { name: 'fee_recipient_token_account', address: input.feeRecipientTokenAccount, role: AccountRole.WRITABLE },
    { name: 'recipient_token_account', address: input.recipientTokenAccount, role: AccountRole.WRITABLE },
    { name: 'custody_token_account', address: pdas.custody, role: AccountRole.WRITABLE },
    { name: 'token_program', address: TOKEN_PROGRAM_ADDRESS, role: AccountRole.READONLY },
    { name: 'event_authority', address: pdas.tokenMessengerEventAuthority, role: AccountRole.READONLY },
    { name: 'program', address: TOKEN_MESSENGER_MINTER_V2_PROGRAM, role: AccountRole.READONLY },
  ];
}

/** Anchor's encoding of `ReceiveMessageParams { message: Vec<u8>, attestation: Vec<u8> }` after the discriminator: u32 LE lengths. */
export function receiveMessageData(message: Uint8Array, attestation: Uint8Array): Uint8Array {
  const u32 = getU32Encoder();
  return new Uint8Array([
    ...RECEIVE_MESSAGE_DISCRIMINATOR,
    ...u32.encode(message.length),
    ...message,
    ...u32.encode(attestation.length),
    ...attestation,
  ]);
}

/** Reads `receiveMessageData` back: undefined unless it is exactly a receive_message's data. */
export function parseReceiveMessageData(data: Uint8Array): { message: Uint8Array; attestation: Uint8Array } | undefined {
  if (data.length < 16 || RECEIVE_MESSAGE_DISCRIMINATOR.some((byte, i) => data[i] !== byte)) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const messageEnd = 12 + view.getUint32(8, true);
  if (messageEnd + 4 > data.length) return undefined;
  const attestationEnd = messageEnd + 4 + view.getUint32(messageEnd, true);
  if (attestationEnd !== data.length) return undefined;
  return { message: data.slice(12, messageEnd), attestation: data.slice(messageEnd + 4, attestationEnd) };
}

/** The fee_recipient wallet of a TokenMessenger account's data (the TokenMessengerMinterV2 IDL's layout). */
export function tokenMessengerFeeRecipient(data: Uint8Array): Address {
  if (
    data.length < TOKEN_MESSENGER_FEE_RECIPIENT_OFFSET + 32 ||
    TOKEN_MESSENGER_ACCOUNT_DISCRIMINATOR.some((byte, i) => data[i] !== byte)
  ) {
    throw new Error('not a TokenMessenger account');
  }
  return getAddressDecoder().decode(data.subarray(TOKEN_MESSENGER_FEE_RECIPIENT_OFFSET, TOKEN_MESSENGER_FEE_RECIPIENT_OFFSET + 32));
}
