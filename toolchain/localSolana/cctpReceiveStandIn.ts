// STAND-IN for Circle's MessageTransmitterV2 `receive_message` (with TokenMessengerMinterV2's
// handle_receive_finalized_message behind it) on the local Solana chain: Circle's programs cannot run here (no
// program binary, no SBF toolchain), so the chain hands every transaction that invokes
// CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC to this module (LocalSolanaChain.installStandIn). It judges the
// transaction as the real programs do (circlefin/solana-cctp-contracts programs/v2: receive_message.rs,
// handle_receive_finalized_message.rs), with their Anchor error numbers:
// - the accounts, in order, are the ones the IDL and the example require (domain/cctp/receiveMessageAccounts.ts,
//   the production list, with the PDAs derived here again from the seeds), signer and writable where required;
// - the attestation is 65-byte secp256k1 signatures over keccak256(message), one per enabled attester, in
//   ascending signer order, low s, v 27/28, recovering to the local attester;
// - the message is for domain 5, addressed to TokenMessengerMinterV2, with no destinationCaller or the caller;
// - the used_nonce account does not exist yet (the real `init` fails with the System program's "already in use");
// - the burn: mintRecipient is the recipient token account (a USDC account), feeExecuted < amount and ≤ maxFee,
//   expirationBlock 0 or past the current slot.
// Then it creates the used_nonce account as the program does (owner MessageTransmitterV2, UsedNonce
// discriminator, is_used = 1, rent paid by the payer), so the production used-nonce check reads real chain state,
// and credits amount − feeExecuted to the recipient and feeExecuted to the fee recipient. Where the real
// TokenMessengerMinterV2 transfers from its custody account, this mints (the local mint authority is ours); the
// remote token messenger, token pair and sender checks need Circle's initialised accounts and are not made here.
// One receive per transaction, with compute-budget instructions only: anything else is refused with STAND_IN_UNSUPPORTED.
import { getMintDecoder, getMintEncoder, getTokenDecoder, getTokenEncoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { address, AccountRole, getAddressDecoder, getAddressEncoder, lamports, type Address } from '@solana/kit';
import type { LiteSVM } from 'litesvm';
import { hexToBigInt, hexToBytes, toHex } from 'viem';
import { decodeBurnMessageV2, decodeMessageV2 } from '../../domain/cctp/messageV2';
import {
  MESSAGE_TRANSMITTER_V2_PROGRAM,
  parseReceiveMessageData,
  receiveMessageAccounts,
  SOLANA_CCTP_DOMAIN,
  TOKEN_MESSENGER_ACCOUNT_DISCRIMINATOR,
  TOKEN_MESSENGER_MINTER_V2_PROGRAM,
  USED_NONCE_ACCOUNT_DISCRIMINATOR,
  type ReceiveMessagePdas,
} from '../../domain/cctp/receiveMessageAccounts';
import type { InstructionsMessage, ProgramStandIn, StandInFailure } from './localSolanaChain';
import { findProgramAddressSync } from './programAddress';

const COMPUTE_BUDGET_PROGRAM = address('ComputeBudget111111111111111111111111111111');
/** The stand-in's own code, outside Anchor's and the programs' ranges: a transaction it cannot run. */
export const STAND_IN_UNSUPPORTED = 9_999;
const SIGNATURE_LENGTH = 65;
const SECP256K1_HALF_ORDER = secp256k1.Point.CURVE().n / 2n;
const U64_MAX = 2n ** 64n - 1n;

/** Anchor's numbers: framework errors, then 6000 + the index in MessageTransmitterError / TokenMessengerError. */
const ERRORS = {
  InstructionDidNotDeserialize: 102,
  AccountNotSigner: 2002,
  ConstraintMut: 2000,
  ConstraintSeeds: 2006,
  AccountAlreadyInUse: 0,
  InvalidDestinationCaller: 6014,
  InvalidDestinationDomain: 6018,
  InvalidRecipientProgram: 6021,
  MalformedMessage: 6025,
  InvalidSignatureOrderOrDupe: 6026,
  InvalidAttesterSignature: 6027,
  InvalidAttestationLength: 6028,
  InvalidSignatureRecoveryId: 6029,
  InvalidSignatureSValue: 6030,
} as const;

/** TokenMessengerError numbers (token_messenger_v2/error.rs) of the burn checks. */
const BURN_ERRORS = { FeeExceedsAmount: 6014, FeeExceedsMaxFee: 6015, MessageExpired: 6016 } as const;

export interface CctpReceiveStandInOptions {
  usdcMint: Address;
  /** The TokenMessenger's fee_recipient wallet: its USDC account receives feeExecuted. */
  feeRecipient: Address;
  /** The enabled attesters' EVM addresses (0x…, any case); the signature threshold is their number. */
  attesters: string[];
}

class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function refuse(code: number, message: string): never {
  throw new Refusal(code, message);
}

function pdasOf(nonce: Uint8Array, sourceDomain: number, burnToken: Uint8Array, usdcMint: Address): ReceiveMessagePdas {
  const mt = MESSAGE_TRANSMITTER_V2_PROGRAM;
  const tmm = TOKEN_MESSENGER_MINTER_V2_PROGRAM;
  const mint = Uint8Array.from(getAddressEncoder().encode(usdcMint));
  const domain = String(sourceDomain);
  return {
    authorityPda: findProgramAddressSync(mt, ['message_transmitter_authority', Uint8Array.from(getAddressEncoder().encode(tmm))]),
    messageTransmitter: findProgramAddressSync(mt, ['message_transmitter']),
    usedNonce: findProgramAddressSync(mt, ['used_nonce', nonce]),
    eventAuthority: findProgramAddressSync(mt, ['__event_authority']),
    tokenMessenger: findProgramAddressSync(tmm, ['token_messenger']),
    remoteTokenMessenger: findProgramAddressSync(tmm, ['remote_token_messenger', domain]),
    tokenMinter: findProgramAddressSync(tmm, ['token_minter']),
    localToken: findProgramAddressSync(tmm, ['local_token', mint]),
    tokenPair: findProgramAddressSync(tmm, ['token_pair', domain, burnToken]),
    custody: findProgramAddressSync(tmm, ['custody', mint]),
    tokenMessengerEventAuthority: findProgramAddressSync(tmm, ['__event_authority']),
  };
}

function associatedTokenAccount(owner: Address, mint: Address): Address {
  const ata = address('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
  return findProgramAddressSync(
    ata,
    [owner, TOKEN_PROGRAM_ADDRESS, mint].map((key) => Uint8Array.from(getAddressEncoder().encode(key))),
  );
}

function recoverAttester(digest: Uint8Array, signature: Uint8Array): string {
  const v = signature[64] as number;
  if (v !== 27 && v !== 28) refuse(ERRORS.InvalidSignatureRecoveryId, 'Invalid signature recovery ID');
  let recovered;
  try {
    const parsed = secp256k1.Signature.fromBytes(signature.subarray(0, 64), 'compact');
    if (parsed.s > SECP256K1_HALF_ORDER) refuse(ERRORS.InvalidSignatureSValue, 'Invalid signature S value');
    recovered = parsed.addRecoveryBit(v - 27).recoverPublicKey(digest);
  } catch (error) {
    if (error instanceof Refusal) throw error;
    refuse(ERRORS.InvalidAttesterSignature, 'Invalid attester signature');
  }
  return `0x${bytesToHex(keccak_256(recovered.toBytes(false).subarray(1)).subarray(12))}`;
}

function verifyAttestation(message: Uint8Array, attestation: Uint8Array, attesters: Set<string>): void {
  if (attestation.length !== SIGNATURE_LENGTH * attesters.size) refuse(ERRORS.InvalidAttestationLength, 'Invalid attestation length');
  const digest = keccak_256(message);
  let last = '0x' + '00'.repeat(20);
  for (let offset = 0; offset < attestation.length; offset += SIGNATURE_LENGTH) {
    const attester = recoverAttester(digest, attestation.subarray(offset, offset + SIGNATURE_LENGTH));
    if (attester <= last) refuse(ERRORS.InvalidSignatureOrderOrDupe, 'Invalid signature order or dupe');
    if (!attesters.has(attester)) refuse(ERRORS.InvalidAttesterSignature, 'Invalid attester signature');
    last = attester;
  }
}

function tokenAccountOf(svm: LiteSVM, account: Address, mint: Address) {
  const found = svm.getAccount(account);
  if (!found.exists || found.programAddress !== TOKEN_PROGRAM_ADDRESS || found.data.length !== 165)
    refuse(3012, `AccountNotInitialized: ${account}`);
  const token = getTokenDecoder().decode(found.data);
  if (token.mint !== mint) refuse(2003, `ConstraintRaw: ${account} is not a USDC account`);
  return { found, token };
}

function credit(svm: LiteSVM, account: Address, mint: Address, amount: bigint): void {
  if (amount === 0n) return;
  const { found, token } = tokenAccountOf(svm, account, mint);
  svm.setAccount({ ...found, data: Uint8Array.from(getTokenEncoder().encode({ ...token, amount: token.amount + amount })) });
  const mintAccount = svm.getAccount(mint);
  if (!mintAccount.exists) throw new Error('the local USDC mint is missing');
  const decoded = getMintDecoder().decode(mintAccount.data);
  svm.setAccount({ ...mintAccount, data: Uint8Array.from(getMintEncoder().encode({ ...decoded, supply: decoded.supply + amount })) });
}

/** The TokenMessenger account (the TokenMessengerMinterV2 IDL's layout) naming `feeRecipient`, as Circle's deployment holds it. */
export function tokenMessengerAccountData(feeRecipient: Address): Uint8Array {
  const data = new Uint8Array(8 + 32 * 3 + 4 + 1 + 32 + 32 + 4);
  data.set(TOKEN_MESSENGER_ACCOUNT_DISCRIMINATOR, 0);
  new DataView(data.buffer).setUint32(8 + 96, 1, true);
  data.set(getAddressEncoder().encode(feeRecipient), 8 + 96 + 4 + 1);
  return data;
}

/** Installs the TokenMessenger account the production builder reads its fee recipient from. */
export function installTokenMessenger(svm: LiteSVM, feeRecipient: Address): void {
  const data = tokenMessengerAccountData(feeRecipient);
  svm.setAccount({
    address: findProgramAddressSync(TOKEN_MESSENGER_MINTER_V2_PROGRAM, ['token_messenger']),
    programAddress: TOKEN_MESSENGER_MINTER_V2_PROGRAM,
    data,
    executable: false,
    lamports: lamports(svm.minimumBalanceForRentExemption(BigInt(data.length))),
    space: BigInt(data.length),
  });
}

export function cctpReceiveStandIn(options: CctpReceiveStandInOptions): ProgramStandIn {
  const attesters = new Set(options.attesters.map((attester) => attester.toLowerCase()));
  const feeRecipientTokenAccount = associatedTokenAccount(options.feeRecipient, options.usdcMint);

  function receive(svm: LiteSVM, message: InstructionsMessage, index: number, simulate: boolean): void {
    const instruction = message.instructions[index] as InstructionsMessage['instructions'][number];
    const params = instruction.data && parseReceiveMessageData(Uint8Array.from(instruction.data));
    if (!params) refuse(ERRORS.InstructionDidNotDeserialize, 'InstructionDidNotDeserialize');
    let fields;
    let burn;
    try {
      fields = decodeMessageV2(toHex(params.message));
      burn = decodeBurnMessageV2(fields.messageBody);
    } catch {
      refuse(ERRORS.MalformedMessage, 'Malformed message');
    }
    const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
    const keys = message.staticAccounts;
    const given = (instruction.accountIndices ?? []).map((at) => ({
      address: keys[at] as Address,
      signer: at < numSignerAccounts,
      writable:
        at < numSignerAccounts ? at < numSignerAccounts - numReadonlySignerAccounts : at < keys.length - numReadonlyNonSignerAccounts,
    }));
    const expected = receiveMessageAccounts({
      pdas: pdasOf(hexToBytes(fields.nonce), fields.sourceDomain, hexToBytes(burn.burnToken), options.usdcMint),
      payer: given[0]?.address ?? (keys[0] as Address),
      caller: given[1]?.address ?? (keys[0] as Address),
      feeRecipientTokenAccount,
      recipientTokenAccount: getAddressDecoder().decode(hexToBytes(burn.mintRecipient)),
    });
    if (given.length !== expected.length)
      refuse(3005, `AccountNotEnoughKeys: receive_message takes ${expected.length} accounts, got ${given.length}`);
    expected.forEach((want, at) => {
      const got = given[at] as (typeof given)[number];
      if (got.address !== want.address)
        refuse(ERRORS.ConstraintSeeds, `ConstraintSeeds: account ${at} (${want.name}) must be ${want.address}, got ${got.address}`);
      if ((want.role === AccountRole.WRITABLE_SIGNER || want.role === AccountRole.READONLY_SIGNER) && !got.signer)
        refuse(ERRORS.AccountNotSigner, `AccountNotSigner: ${want.name}`);
      if ((want.role === AccountRole.WRITABLE_SIGNER || want.role === AccountRole.WRITABLE) && !got.writable)
        refuse(ERRORS.ConstraintMut, `ConstraintMut: ${want.name}`);
    });
    verifyAttestation(params.message, params.attestation, attesters);
    if (fields.destinationDomain !== SOLANA_CCTP_DOMAIN) refuse(ERRORS.InvalidDestinationDomain, 'Invalid destination domain');
    const caller = getAddressDecoder().decode(hexToBytes(fields.destinationCaller));
    if (hexToBigInt(fields.destinationCaller) !== 0n && caller !== given[1]?.address)
      refuse(ERRORS.InvalidDestinationCaller, 'Invalid destination caller');
    if (getAddressDecoder().decode(hexToBytes(fields.recipient)) !== TOKEN_MESSENGER_MINTER_V2_PROGRAM)
      refuse(ERRORS.InvalidRecipientProgram, 'Invalid recipient program');
    const usedNonce = expected[4]?.address as Address;
    if (svm.getAccount(usedNonce).exists)
      refuse(ERRORS.AccountAlreadyInUse, `Allocate: account Address { address: ${usedNonce}, base: None } already in use`);
    if (burn.amount > U64_MAX || burn.maxFee > U64_MAX || burn.feeExecuted > U64_MAX) refuse(ERRORS.MalformedMessage, 'Malformed message');
    if (burn.expirationBlock !== 0n && burn.expirationBlock <= svm.getClock().slot)
      refuse(BURN_ERRORS.MessageExpired, 'Message has expired');
    if (burn.feeExecuted >= burn.amount) refuse(BURN_ERRORS.FeeExceedsAmount, 'Fee exceeds amount');
    if (burn.feeExecuted > burn.maxFee) refuse(BURN_ERRORS.FeeExceedsMaxFee, 'Fee exceeds max fee');
    const recipient = expected[15]?.address as Address;
    tokenAccountOf(svm, recipient, options.usdcMint);
    if (burn.feeExecuted > 0n) tokenAccountOf(svm, feeRecipientTokenAccount, options.usdcMint);
    const payer = svm.getAccount(given[0]?.address as Address);
    const rent = svm.minimumBalanceForRentExemption(9n);
    if (!payer.exists || payer.lamports < rent) refuse(1, 'Transfer: insufficient lamports for the used_nonce account');
    if (simulate) return;

    svm.setAccount({ ...payer, lamports: lamports(payer.lamports - rent) });
    svm.setAccount({
      address: usedNonce,
      programAddress: MESSAGE_TRANSMITTER_V2_PROGRAM,
      data: new Uint8Array([...USED_NONCE_ACCOUNT_DISCRIMINATOR, 1]),
      executable: false,
      lamports: lamports(rent),
      space: 9n,
    });
    credit(svm, feeRecipientTokenAccount, options.usdcMint, burn.feeExecuted);
    credit(svm, recipient, options.usdcMint, burn.amount - burn.feeExecuted);
  }

  return {
    program: MESSAGE_TRANSMITTER_V2_PROGRAM,
    run(svm, message, simulate) {
      const logs: string[] = [];
      const programs = message.instructions.map((instruction) => message.staticAccounts[instruction.programAddressIndex]);
      const receives = programs.filter((program) => program === MESSAGE_TRANSMITTER_V2_PROGRAM).length;
      const unsupported =
        receives > 1
          ? programs.lastIndexOf(MESSAGE_TRANSMITTER_V2_PROGRAM)
          : programs.findIndex((program) => program !== MESSAGE_TRANSMITTER_V2_PROGRAM && program !== COMPUTE_BUDGET_PROGRAM);
      if (unsupported >= 0) {
        return {
          failure: { index: unsupported, code: STAND_IN_UNSUPPORTED },
          logs: [
            `local CCTP stand-in: a receive_message transaction may hold one receive and compute-budget instructions only, not ${programs[unsupported]}`,
          ],
        };
      }
      // Judge every receive before changing anything, so a failing one leaves the chain as it was.
      for (const pass of simulate ? [true] : [true, false]) {
        for (const [index, program] of programs.entries()) {
          if (program !== MESSAGE_TRANSMITTER_V2_PROGRAM) continue;
          if (!pass) logs.push(`Program ${program} invoke [1]`, 'Program log: Instruction: ReceiveMessage');
          try {
            receive(svm, message, index, pass);
          } catch (error) {
            if (!(error instanceof Refusal)) throw error;
            const failure: StandInFailure = { index, code: error.code };
            logs.push(
              `Program ${program} invoke [1]`,
              `Program log: local CCTP stand-in refused receive_message: ${error.message} (error ${error.code})`,
              `Program ${program} failed: custom program error: 0x${error.code.toString(16)}`,
            );
            return { failure, logs };
          }
          if (!pass) logs.push(`Program ${program} success`);
        }
      }
      return { logs };
    },
  };
}
