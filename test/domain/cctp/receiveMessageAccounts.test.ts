// Golden vectors of the Solana `receive_message` the service builds, against Circle's published IDLs (committed
// under test/fixtures/cctp, source in SOURCE.md) and the seeds of programs/v2: discriminators, Anchor's argument
// encoding, every PDA derived again here by an independent implementation and pinned as literal addresses, the
// account order and the signer/writable flags.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AccountRole, address, getAddressEncoder } from '@solana/kit';
import { describe, expect, test } from 'vitest';
import {
  MESSAGE_TRANSMITTER_V2_PROGRAM,
  parseReceiveMessageData,
  RECEIVE_MESSAGE_DISCRIMINATOR,
  receiveMessageAccounts,
  receiveMessageData,
  receiveMessagePdas,
  TOKEN_MESSENGER_ACCOUNT_DISCRIMINATOR,
  TOKEN_MESSENGER_MINTER_V2_PROGRAM,
  tokenMessengerFeeRecipient,
  USED_NONCE_ACCOUNT_DISCRIMINATOR,
  usedNoncePda,
} from '../../../domain/cctp/receiveMessageAccounts';
import { tokenMessengerAccountData } from '../../../toolchain/localSolana/cctpReceiveStandIn';
import { findProgramAddressSync } from '../../../toolchain/localSolana/programAddress';

interface IdlAccount {
  name: string;
  writable?: boolean;
  signer?: boolean;
  address?: string;
}
interface Idl {
  address: string;
  instructions: { name: string; discriminator: number[]; accounts: IdlAccount[] }[];
  accounts: { name: string; discriminator: number[] }[];
}

const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, '../../fixtures/cctp', name), 'utf8')) as Idl;
const mtIdl = fixture('message_transmitter_v2.json');
const tmmIdl = fixture('token_messenger_minter_v2.json');
const instruction = (idl: Idl, name: string) => idl.instructions.find((ix) => ix.name === name) as Idl['instructions'][number];
const anchorDiscriminator = (preimage: string) => [...createHash('sha256').update(preimage).digest().subarray(0, 8)];

// The example: mainnet USDC, a burn of Base (domain 6) USDC 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913, nonce 0x01…20.
const USDC = address('EPjFWJd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
const NONCE = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const BURN_TOKEN = Uint8Array.from(Buffer.from('000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913', 'hex'));
const PAYER = address('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin');
const FEE_RECIPIENT_ACCOUNT = address('SysvarC1ock11111111111111111111111111111111');
const RECIPIENT_ACCOUNT = address('SysvarRent111111111111111111111111111111111');

const roleFlags = (role: AccountRole) => ({
  signer: role === AccountRole.READONLY_SIGNER || role === AccountRole.WRITABLE_SIGNER,
  writable: role === AccountRole.WRITABLE || role === AccountRole.WRITABLE_SIGNER,
});

describe('receive_message golden vectors', () => {
  test('the program ids and discriminators are the IDLs’ and Anchor’s', () => {
    expect(mtIdl.address).toBe(MESSAGE_TRANSMITTER_V2_PROGRAM);
    expect(tmmIdl.address).toBe(TOKEN_MESSENGER_MINTER_V2_PROGRAM);
    expect([...RECEIVE_MESSAGE_DISCRIMINATOR]).toEqual([38, 144, 127, 225, 31, 225, 238, 25]);
    expect([...RECEIVE_MESSAGE_DISCRIMINATOR]).toEqual(instruction(mtIdl, 'receive_message').discriminator);
    expect([...RECEIVE_MESSAGE_DISCRIMINATOR]).toEqual(anchorDiscriminator('global:receive_message'));
    expect([...USED_NONCE_ACCOUNT_DISCRIMINATOR]).toEqual(mtIdl.accounts.find((a) => a.name === 'UsedNonce')?.discriminator);
    expect([...USED_NONCE_ACCOUNT_DISCRIMINATOR]).toEqual(anchorDiscriminator('account:UsedNonce'));
    expect([...TOKEN_MESSENGER_ACCOUNT_DISCRIMINATOR]).toEqual(tmmIdl.accounts.find((a) => a.name === 'TokenMessenger')?.discriminator);
  });

  test('the arguments are Anchor’s Borsh: two u32-length-prefixed byte vectors after the discriminator', () => {
    const data = receiveMessageData(new Uint8Array([1, 2, 3]), new Uint8Array([4, 5]));
    expect(Buffer.from(data).toString('hex')).toBe('26907fe11fe1ee19' + '03000000' + '010203' + '02000000' + '0405');
    expect(parseReceiveMessageData(data)).toEqual({ message: new Uint8Array([1, 2, 3]), attestation: new Uint8Array([4, 5]) });
    expect(parseReceiveMessageData(data.subarray(0, data.length - 1))).toBeUndefined();
  });

  test('every PDA is the one its seeds give, pinned', async () => {
    const pdas = await receiveMessagePdas({ nonce: NONCE, sourceDomain: 6, burnToken: BURN_TOKEN, usdcMint: USDC });
    const mt = MESSAGE_TRANSMITTER_V2_PROGRAM;
    const tmm = TOKEN_MESSENGER_MINTER_V2_PROGRAM;
    const key = (a: string) => Uint8Array.from(getAddressEncoder().encode(address(a)));
    const mint = key(USDC);
    expect(pdas).toEqual({
      authorityPda: findProgramAddressSync(mt, ['message_transmitter_authority', key(tmm)]),
      messageTransmitter: findProgramAddressSync(mt, ['message_transmitter']),
      usedNonce: findProgramAddressSync(mt, ['used_nonce', NONCE]),
      eventAuthority: findProgramAddressSync(mt, ['__event_authority']),
      tokenMessenger: findProgramAddressSync(tmm, ['token_messenger']),
      remoteTokenMessenger: findProgramAddressSync(tmm, ['remote_token_messenger', '6']),
      tokenMinter: findProgramAddressSync(tmm, ['token_minter']),
      localToken: findProgramAddressSync(tmm, ['local_token', mint]),
      tokenPair: findProgramAddressSync(tmm, ['token_pair', '6', BURN_TOKEN]),
      custody: findProgramAddressSync(tmm, ['custody', mint]),
      tokenMessengerEventAuthority: findProgramAddressSync(tmm, ['__event_authority']),
    });
    expect(pdas).toMatchInlineSnapshot(`
      {
        "authorityPda": "DsAdX23SVpTPYhKP2ua1mx8gTPqLyzx7a43cyxYjS2up",
        "custody": "Rc5bQhTF3edmXL2haqyEBqzBcKXGZxDBfursQexJmmx",
        "eventAuthority": "2PcXTomVAbX5Es1NUZUkxwuCm8tvV4NmRk3fmQWFCWoV",
        "localToken": "5BUD1rMpQh8QPoehZZeubRrD56bAEUocBrHeREnYCAya",
        "messageTransmitter": "W1k5ijkaSTo5iA5zChNpfzcy796fLhkBxfmJuR8W8HU",
        "remoteTokenMessenger": "BwmDYtQ7jFj8ddaTmKa7fz9hyuK9n58mvc8G7DYNcKjM",
        "tokenMessenger": "AawthJCGRmggpfv9MMWV6Jmo9cue4gL9wUZgRBShg58W",
        "tokenMessengerEventAuthority": "6TCCnJ9R1m1RXFzyoH7GYH2J6NJDtZaUvfipPuLWxHNd",
        "tokenMinter": "E1bQJ8eMMn3zmeSewW3HQ8zmJr7KR75JonbwAtWx2bux",
        "tokenPair": "3udrkuozTYGBVMyMdxmXWVTUrnpmSh7kEZiq67A8jTws",
        "usedNonce": "HMgeiMRrUTjouVzyvjJiAoqUp8GqxkNEotmjtc3JC45z",
      }
    `);
    expect(await usedNoncePda(NONCE)).toBe(pdas.usedNonce);
    await expect(usedNoncePda(NONCE.subarray(1))).rejects.toThrow('32 bytes');
  });

  test('the accounts are the IDL’s, in its order, then handle_receive_finalized_message’s as the example passes them', async () => {
    const pdas = await receiveMessagePdas({ nonce: NONCE, sourceDomain: 6, burnToken: BURN_TOKEN, usdcMint: USDC });
    const accounts = receiveMessageAccounts({
      pdas,
      payer: PAYER,
      caller: PAYER,
      feeRecipientTokenAccount: FEE_RECIPIENT_ACCOUNT,
      recipientTokenAccount: RECIPIENT_ACCOUNT,
    });
    const own = instruction(mtIdl, 'receive_message').accounts;
    // The receiver's accounts after the authority PDA, which MessageTransmitterV2 passes itself (receive_message.rs).
    const remaining = instruction(tmmIdl, 'handle_receive_finalized_message').accounts.slice(1);
    expect(accounts.map((a) => a.name)).toEqual([...own, ...remaining].map((a) => a.name));
    [...own, ...remaining].forEach((idl, i) => {
      const flags = roleFlags((accounts[i] as (typeof accounts)[number]).role);
      expect(flags.signer, idl.name).toBe(i < own.length ? idl.signer === true : false);
      // examples/v2/solana.ts passes token_minter writable where the IDL has it read-only; the rest is the IDL's.
      expect(flags.writable, idl.name).toBe(idl.writable === true || (i >= own.length && idl.name === 'token_minter'));
      if (idl.address) expect(accounts[i]?.address, idl.name).toBe(idl.address);
    });
    expect(accounts.map((a) => a.address)).toMatchInlineSnapshot(`
      [
        "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
        "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
        "DsAdX23SVpTPYhKP2ua1mx8gTPqLyzx7a43cyxYjS2up",
        "W1k5ijkaSTo5iA5zChNpfzcy796fLhkBxfmJuR8W8HU",
        "HMgeiMRrUTjouVzyvjJiAoqUp8GqxkNEotmjtc3JC45z",
        "CCTPV2vPZJS2u2BBsUoscuikbYjnpFmbFsvVuJdgUMQe",
        "11111111111111111111111111111111",
        "2PcXTomVAbX5Es1NUZUkxwuCm8tvV4NmRk3fmQWFCWoV",
        "CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC",
        "AawthJCGRmggpfv9MMWV6Jmo9cue4gL9wUZgRBShg58W",
        "BwmDYtQ7jFj8ddaTmKa7fz9hyuK9n58mvc8G7DYNcKjM",
        "E1bQJ8eMMn3zmeSewW3HQ8zmJr7KR75JonbwAtWx2bux",
        "5BUD1rMpQh8QPoehZZeubRrD56bAEUocBrHeREnYCAya",
        "3udrkuozTYGBVMyMdxmXWVTUrnpmSh7kEZiq67A8jTws",
        "SysvarC1ock11111111111111111111111111111111",
        "SysvarRent111111111111111111111111111111111",
        "Rc5bQhTF3edmXL2haqyEBqzBcKXGZxDBfursQexJmmx",
        "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
        "6TCCnJ9R1m1RXFzyoH7GYH2J6NJDtZaUvfipPuLWxHNd",
        "CCTPV2vPZJS2u2BBsUoscuikbYjnpFmbFsvVuJdgUMQe",
      ]
    `);
  });

  test('the fee recipient is read at the TokenMessenger layout’s offset, from a TokenMessenger account only', () => {
    expect(tokenMessengerFeeRecipient(tokenMessengerAccountData(PAYER))).toBe(PAYER);
    expect(() => tokenMessengerFeeRecipient(new Uint8Array(300))).toThrow('not a TokenMessenger account');
  });
});
