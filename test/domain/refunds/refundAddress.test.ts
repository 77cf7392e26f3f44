import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { tronAddressFromEvmHex } from '../../../domain/addresses/tron';
import { validateOwnerAddress, validateRefundAddress } from '../../../domain/refunds/refundAddress';

const WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
// The associated USDC token account of WALLET: a program-derived address, off the curve.
const TOKEN_ACCOUNT = '4pAuu9vaJ6354MroMjKyaHnRAHvGs3w6hKEM1eTMfHVg';
const EVM = getAddress(`0x${'5a'.repeat(10)}${'b3'.repeat(10)}`);
const TRON = tronAddressFromEvmHex(`0x${'5a'.repeat(10)}${'b3'.repeat(10)}`);

describe('validateRefundAddress', () => {
  it('accepts a Solana wallet for USDC on Solana', () => {
    expect(validateRefundAddress({ chain: 'solana', token: 'USDC', address: WALLET })).toEqual({
      ok: true,
      destination: { chain: 'solana', token: 'USDC', address: WALLET },
    });
  });

  it.each([
    ['solana', 'USDT'],
    ['base', 'USDC'],
    ['tron', 'USDT'],
  ] as const)('refuses %s %s, no route the service pays refunds on', (chain, token) => {
    const address = chain === 'solana' ? WALLET : chain === 'tron' ? TRON : EVM;
    expect(validateRefundAddress({ chain, token, address })).toEqual({
      ok: false,
      message: `destination: refunds are paid only as USDC on solana, not ${token} on ${chain}`,
    });
  });

  it('refuses a token account in place of its owner', () => {
    expect(validateRefundAddress({ chain: 'solana', token: 'USDC', address: TOKEN_ACCOUNT })).toEqual({
      ok: false,
      message: expect.stringContaining('is off the ed25519 curve'),
    });
  });

  it.each([EVM, TRON, `${WALLET}x`, WALLET.slice(0, 20), '11111111111111111111111111111111'])('refuses %j on Solana', (address) => {
    expect(validateRefundAddress({ chain: 'solana', token: 'USDC', address })).toMatchObject({ ok: false });
  });
});

describe('validateOwnerAddress', () => {
  it('spells an EVM address EIP-55, accepting it all lowercase', () => {
    expect(validateOwnerAddress('base', EVM.toLowerCase())).toEqual({ ok: true, address: EVM });
    expect(validateOwnerAddress('ethereum', EVM)).toEqual({ ok: true, address: EVM });
  });

  it('refuses an EVM address whose mixed case breaks its checksum', () => {
    const broken = EVM.replace(/[a-f]/, (c) => c.toUpperCase());
    expect(broken).not.toBe(EVM);
    expect(validateOwnerAddress('base', broken)).toMatchObject({ ok: false, problem: expect.stringContaining('EIP-55') });
  });

  it.each(['0x0000000000000000000000000000000000000000', `0x${'5a'.repeat(19)}`, WALLET, TRON])('refuses %j on an EVM chain', (address) => {
    expect(validateOwnerAddress('polygon', address)).toMatchObject({ ok: false });
  });

  it('accepts a base58check Tron address and refuses one with a broken checksum or another chain', () => {
    expect(validateOwnerAddress('tron', TRON)).toEqual({ ok: true, address: TRON });
    const broken = `${TRON.slice(0, -1)}${TRON.endsWith('a') ? 'b' : 'a'}`;
    for (const address of [broken, EVM, WALLET]) expect(validateOwnerAddress('tron', address), address).toMatchObject({ ok: false });
  });
});
