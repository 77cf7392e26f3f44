import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { TronWeb, utils as tronUtils } from 'tronweb';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { refundClaimMessage } from '../../../domain/refunds/claimMessage';
import { tronMessageDigest, verifySenderProof } from '../../../domain/refunds/senderProof';

const MESSAGE = refundClaimMessage('ref_01ARZ3NDEKTSV4RRFFQ69G5FAV', {
  chain: 'solana',
  token: 'USDC',
  address: 'GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB',
});
const KEY = `0x${'11'.repeat(32)}` as const;
const OTHER_KEY = `0x${'22'.repeat(32)}` as const;

describe('EVM sender proofs (EIP-191 personal_sign)', () => {
  const payer = privateKeyToAccount(KEY);

  it("accepts the payer's signature of the message, whatever the case of the address", async () => {
    const signature = await payer.signMessage({ message: MESSAGE });
    expect(await verifySenderProof({ chain: 'base', sender: payer.address, message: MESSAGE, signature })).toBe(true);
    expect(await verifySenderProof({ chain: 'base', sender: payer.address.toLowerCase(), message: MESSAGE, signature })).toBe(true);
  });

  it('refuses another key, another message and garbage', async () => {
    const other = await privateKeyToAccount(OTHER_KEY).signMessage({ message: MESSAGE });
    expect(await verifySenderProof({ chain: 'base', sender: payer.address, message: MESSAGE, signature: other })).toBe(false);
    const signature = await payer.signMessage({ message: MESSAGE });
    expect(await verifySenderProof({ chain: 'base', sender: payer.address, message: `${MESSAGE}.`, signature })).toBe(false);
    for (const bad of ['', '0x', 'zz', `0x${'00'.repeat(65)}`])
      expect(await verifySenderProof({ chain: 'base', sender: payer.address, message: MESSAGE, signature: bad })).toBe(false);
  });
});

describe('Solana sender proofs (ed25519 over the UTF-8 message)', () => {
  const secret = new Uint8Array(32).fill(5);
  const sender = base58.encode(ed25519.getPublicKey(secret));
  const raw = ed25519.sign(utf8ToBytes(MESSAGE), secret);

  it('accepts the signature as base58 or as hex', async () => {
    expect(await verifySenderProof({ chain: 'solana', sender, message: MESSAGE, signature: base58.encode(raw) })).toBe(true);
    expect(await verifySenderProof({ chain: 'solana', sender, message: MESSAGE, signature: bytesToHex(raw) })).toBe(true);
  });

  it('refuses another signer, another message and garbage', async () => {
    const other = ed25519.sign(utf8ToBytes(MESSAGE), new Uint8Array(32).fill(6));
    expect(await verifySenderProof({ chain: 'solana', sender, message: MESSAGE, signature: base58.encode(other) })).toBe(false);
    expect(await verifySenderProof({ chain: 'solana', sender, message: 'other', signature: base58.encode(raw) })).toBe(false);
    expect(await verifySenderProof({ chain: 'solana', sender, message: MESSAGE, signature: '0OIl' })).toBe(false);
  });
});

describe('Tron sender proofs (signMessageV2)', () => {
  const sender = TronWeb.address.fromPrivateKey(KEY.slice(2)) as string;

  it("hashes as tronweb's signMessageV2 does", () => {
    expect(`0x${bytesToHex(tronMessageDigest(MESSAGE))}`).toBe(tronUtils.message.hashMessage(MESSAGE));
  });

  it('accepts the golden vector: tronweb signing the message with a known key', async () => {
    const signature = tronUtils.message.signMessage(MESSAGE, KEY);
    expect(sender).toBe('TCLBgkbfVkJroVBJVqBEsxtPNQEQMTQCLQ');
    expect(await verifySenderProof({ chain: 'tron', sender, message: MESSAGE, signature })).toBe(true);
    expect(await verifySenderProof({ chain: 'tron', sender, message: MESSAGE, signature: signature.slice(2) })).toBe(true);
  });

  it('accepts a recovery byte of 0/1 as well as 27/28', async () => {
    const signed = secp256k1.sign(tronMessageDigest(MESSAGE), hexToBytes(KEY.slice(2)), {
      prehash: false,
      format: 'recovered',
    });
    // noble's 'recovered' format puts the recovery byte first; wallets put it last.
    const signature = bytesToHex(new Uint8Array([...signed.subarray(1), signed[0] as number]));
    expect(await verifySenderProof({ chain: 'tron', sender, message: MESSAGE, signature })).toBe(true);
  });

  it('refuses another key and a tampered message', async () => {
    const other = tronUtils.message.signMessage(MESSAGE, OTHER_KEY);
    expect(await verifySenderProof({ chain: 'tron', sender, message: MESSAGE, signature: other })).toBe(false);
    const signature = tronUtils.message.signMessage(MESSAGE, KEY);
    expect(await verifySenderProof({ chain: 'tron', sender, message: `${MESSAGE} `, signature })).toBe(false);
  });
});
