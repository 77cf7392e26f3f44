import { ed25519 } from '@noble/curves/ed25519.js';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { address } from '@solana/kit';
import { base58 } from '@scure/base';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { checkRefundAddress, checkRefundDestination, eip55 } from '../../../domain/refunds/refundAddress';

const WALLET = base58.encode(ed25519.getPublicKey(new Uint8Array(32).fill(7)));
const USDC_DEVNET_MINT = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';

describe('EVM refund addresses', () => {
  // The first vector of EIP-55 itself.
  const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

  it('computes the EIP-55 spelling as viem does', () => {
    expect(eip55(CHECKSUMMED.toLowerCase())).toBe(CHECKSUMMED);
    const other = `0x${'ab12cd34'.repeat(5)}`;
    expect(eip55(other)).toBe(getAddress(other));
  });

  it('accepts a correctly checksummed address and an all-lowercase one, both as EIP-55', () => {
    expect(checkRefundAddress('base', CHECKSUMMED)).toEqual({ ok: true, address: CHECKSUMMED });
    expect(checkRefundAddress('ethereum', CHECKSUMMED.toLowerCase())).toEqual({ ok: true, address: CHECKSUMMED });
  });

  it('refuses a mixed-case address whose checksum is wrong', () => {
    const typo = CHECKSUMMED.replace('aAeb', 'aaeb');
    expect(checkRefundAddress('base', typo)).toEqual({ ok: false, message: expect.stringMatching(/checksum/) });
  });

  it.each(['0x1234', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', `0x${'g'.repeat(40)}`])('refuses the malformed %j', (value) => {
    expect(checkRefundAddress('polygon', value).ok).toBe(false);
  });

  it('refuses the zero address', () => {
    expect(checkRefundAddress('base', `0x${'0'.repeat(40)}`)).toEqual({ ok: false, message: expect.stringMatching(/zero address/) });
  });
});

describe('Solana refund addresses', () => {
  it('accepts a wallet: a public key on the ed25519 curve', () => {
    expect(checkRefundAddress('solana', ` ${WALLET} `)).toEqual({ ok: true, address: WALLET });
  });

  it("refuses the wallet's USDC token account, which is off the curve", async () => {
    const [ata] = await findAssociatedTokenPda({
      owner: address(WALLET),
      mint: address(USDC_DEVNET_MINT),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    expect(checkRefundAddress('solana', ata)).toEqual({ ok: false, message: 'That is a token account, give your wallet address' });
  });

  it.each(['', 'not-base58-0OIl', base58.encode(new Uint8Array(31).fill(1)), `0${WALLET.slice(1)}`])('refuses %j', (value) => {
    expect(checkRefundAddress('solana', value).ok).toBe(false);
  });
});

describe('Tron refund addresses', () => {
  const USDT_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

  it('accepts a base58check address', () => {
    expect(checkRefundAddress('tron', USDT_CONTRACT)).toEqual({ ok: true, address: USDT_CONTRACT });
  });

  it('refuses one character changed (a broken checksum) and a hex address', () => {
    expect(checkRefundAddress('tron', `${USDT_CONTRACT.slice(0, -1)}u`).ok).toBe(false);
    expect(checkRefundAddress('tron', `41${'ab'.repeat(20)}`).ok).toBe(false);
  });
});

describe('refund destinations', () => {
  it('takes a route the service pays refunds on', () => {
    expect(checkRefundDestination({ chain: 'solana', token: 'USDC', address: WALLET })).toEqual({ ok: true, address: WALLET });
  });

  it('refuses a valid address on a chain or token no route pays', () => {
    expect(checkRefundDestination({ chain: 'base', token: 'USDC', address: `0x${'ab'.repeat(20)}` })).toEqual({
      ok: false,
      message: 'Refunds are paid only as USDC on solana',
    });
    expect(checkRefundDestination({ chain: 'solana', token: 'USDT', address: WALLET }).ok).toBe(false);
  });
});
