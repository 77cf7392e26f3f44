import { decodeFunctionData, keccak256, toFunctionSelector, toHex } from 'viem';
import type { AbiEvent, AbiFunction } from 'viem';
import { address } from '@solana/kit';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEPOSIT_FOR_BURN_SELECTOR,
  DEPOSIT_FOR_BURN_TOPIC,
  MESSAGE_SENT_TOPIC,
  messageTransmitterV2Abi,
  tokenMessengerV2Abi,
} from '../../../domain/cctp/cctpAbi';
import { DepositForBurnError, depositForBurnCalldata, solanaAddressBytes32 } from '../../../domain/cctp/depositForBurn';
import { CCTP_SOURCE_DOMAINS, SOLANA_CCTP_DOMAIN, cctpSpeedFor, isCctpSourceChain } from '../../../domain/cctp/domains';
import { CctpFeeError, DEFAULT_CCTP_MAX_FEE_BPS, judgeBurnFee, maxFeeFor } from '../../../domain/cctp/maxFee';

// Extracted from circlefin/evm-cctp-contracts docs/abis/cctp/v2.1 (commit in the file's `source`).
const circleAbi = JSON.parse(readFileSync(new URL('../../fixtures/cctp/circleAbiV2.json', import.meta.url), 'utf8')) as {
  tokenMessengerV2: (AbiFunction | AbiEvent)[];
  messageTransmitterV2: AbiEvent[];
};

// Circle's JSON also names solc's internal types and spells out defaults (empty output names, `indexed: false`,
// `anonymous: false`); none of them changes the encoding.
const defaults = new Set(['name:""', 'indexed:false', 'anonymous:false']);
const strip = (entries: readonly unknown[]) =>
  JSON.parse(
    JSON.stringify(entries, (key, value: unknown) =>
      key === 'internalType' || defaults.has(`${key}:${JSON.stringify(value)}`) ? undefined : value,
    ),
  ) as unknown[];
const byName = (entries: readonly { name?: string }[]) => [...entries].sort((a, b) => String(a.name).localeCompare(String(b.name)));

describe('TokenMessengerV2 and MessageTransmitterV2 ABIs', () => {
  it('are Circle’s published entries', () => {
    expect(strip(byName(tokenMessengerV2Abi))).toEqual(strip(byName(circleAbi.tokenMessengerV2)));
    expect(strip(messageTransmitterV2Abi)).toEqual(strip(circleAbi.messageTransmitterV2));
  });

  it('have the topics and selector Circle publishes, as keccak of the signatures', () => {
    expect(keccak256(toHex('MessageSent(bytes)'))).toBe(MESSAGE_SENT_TOPIC);
    expect(keccak256(toHex('DepositForBurn(address,uint256,address,bytes32,uint32,bytes32,bytes32,uint256,uint32,bytes)'))).toBe(
      DEPOSIT_FOR_BURN_TOPIC,
    );
    expect(toFunctionSelector('depositForBurn(uint256,uint32,bytes32,address,bytes32,uint256,uint32)')).toBe(DEPOSIT_FOR_BURN_SELECTOR);
    expect(toFunctionSelector('getMinFeeAmount(uint256)')).toBe('0x516990e3');
  });
});

describe('the CCTP domain table', () => {
  it('maps the five USDC source chains and nothing else', () => {
    expect(CCTP_SOURCE_DOMAINS).toEqual({ ethereum: 0, optimism: 2, arbitrum: 3, base: 6, polygon: 7 });
    expect(SOLANA_CCTP_DOMAIN).toBe(5);
    expect(['bsc', 'tron', 'solana'].map((chain) => isCctpSourceChain(chain as never))).toEqual([false, false, false]);
  });

  it('burns Standard by default, Fast only where configured and the source offers it', () => {
    expect(cctpSpeedFor('base', false)).toBe('standard');
    expect(cctpSpeedFor('base', true)).toBe('fast');
    expect(cctpSpeedFor('polygon', true)).toBe('standard');
  });
});

describe('maxFee from the fees endpoint', () => {
  const quotes = [
    { finalityThreshold: 1000, minimumFee: 1.3 },
    { finalityThreshold: 2000, minimumFee: 0 },
  ];

  it('takes the Fast entry’s fractional bps, rounded up, exactly', () => {
    // 1.3 bps of 1,000 USDC = 0.13 USDC = 130,000 minor units; a float would give 129,999.99….
    expect(maxFeeFor(1_000_000_000n, quotes, 'fast')).toBe(130_000n);
    expect(maxFeeFor(1_000_001n, quotes, 'fast')).toBe(131n);
  });

  it('is zero for a free Standard burn, and at least 1 whenever a fee is on', () => {
    expect(maxFeeFor(5_000_000n, quotes, 'standard')).toBe(0n);
    expect(maxFeeFor(5_000_000n, [{ finalityThreshold: 2000, minimumFee: 0.0001 }], 'standard')).toBe(1n);
  });

  it('refuses a quote without the speed, a fee that eats the amount, and nonsense', () => {
    expect(() => maxFeeFor(5n, [{ finalityThreshold: 2000, minimumFee: 0 }], 'fast')).toThrow(/1000/);
    expect(() => maxFeeFor(1n, quotes, 'fast')).toThrow(CctpFeeError);
    expect(() => maxFeeFor(0n, quotes, 'standard')).toThrow(CctpFeeError);
    expect(() => maxFeeFor(5n, [{ finalityThreshold: 2000, minimumFee: -1 }], 'standard')).toThrow(CctpFeeError);
  });
});

describe('the operator’s ceiling on maxFee', () => {
  const quote = (fast: number, standard: number) => [
    { finalityThreshold: 1000, minimumFee: fast },
    { finalityThreshold: 2000, minimumFee: standard },
  ];

  it('lets every fee Circle publishes through at the default: 0 to 14 bps', () => {
    expect(judgeBurnFee(1_000_000_000n, quote(14, 0), 'fast', DEFAULT_CCTP_MAX_FEE_BPS)).toEqual({
      burn: true,
      speed: 'fast',
      maxFee: 1_400_000n,
    });
  });

  it('takes a quote at the ceiling, and refuses one a unit above it', () => {
    expect(judgeBurnFee(1_000_000_000n, quote(20, 20), 'fast', 20)).toEqual({ burn: true, speed: 'fast', maxFee: 2_000_000n });
    expect(judgeBurnFee(1_000_000_000n, quote(20.0001, 20.0001), 'fast', 20)).toMatchObject({ burn: false });
    expect(judgeBurnFee(1_000_000_000n, quote(0, 9_999), 'standard', 20)).toEqual({
      burn: false,
      reason: 'the CCTP fee quote is above CCTP_MAX_FEE_BPS=20 (at most 2000000 of 1000000000): standard asks maxFee 999900000',
    });
  });

  it('falls back to Standard when only the Fast quote is above it', () => {
    expect(judgeBurnFee(1_000_000_000n, quote(9_000, 0), 'fast', 20)).toEqual({ burn: true, speed: 'standard', maxFee: 0n });
    expect(judgeBurnFee(1_000_000_000n, quote(9_000, 25), 'fast', 20)).toEqual({
      burn: false,
      reason:
        'the CCTP fee quote is above CCTP_MAX_FEE_BPS=20 (at most 2000000 of 1000000000): fast asks maxFee 900000000, standard asks maxFee 2500000',
    });
  });

  it('holds a tiny burn’s 1-unit fee floor to the ceiling like any other fee', () => {
    expect(judgeBurnFee(100n, quote(1, 0), 'fast', 20)).toEqual({ burn: true, speed: 'fast', maxFee: 1n });
    expect(judgeBurnFee(100n, quote(1, 0), 'fast', 0)).toEqual({ burn: true, speed: 'standard', maxFee: 0n });
  });
});

describe('depositForBurn calldata', () => {
  // Circle's docs example message (cctp API reference, /v2/messages) carries Solana's USDC mint as burnToken.
  it('turns a Solana token account into its 32 bytes for mintRecipient', () => {
    expect(solanaAddressBytes32(address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'))).toBe(
      '0xc6fa7af3bedbad3a3d65f36aabc97431b1bbe4c2d2f6e0e47ca60203452f5d61',
    );
  });

  const args = {
    amount: 2_500_000n,
    destinationDomain: SOLANA_CCTP_DOMAIN,
    mintRecipient: '0xc6fa7af3bedbad3a3d65f36aabc97431b1bbe4c2d2f6e0e47ca60203452f5d61' as const,
    burnToken: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' as const,
    maxFee: 250n,
    speed: 'fast' as const,
  };

  it('starts with 0x8e0250ee and carries destinationCaller 0 and the speed’s threshold', () => {
    const data = depositForBurnCalldata(args);
    expect(data.slice(0, 10)).toBe('0x8e0250ee');
    expect(data.length).toBe(2 + 8 + 7 * 64);
    expect(decodeFunctionData({ abi: tokenMessengerV2Abi, data }).args).toEqual([
      2_500_000n,
      5,
      args.mintRecipient,
      args.burnToken,
      `0x${'00'.repeat(32)}`,
      250n,
      1000,
    ]);
    expect(decodeFunctionData({ abi: tokenMessengerV2Abi, data: depositForBurnCalldata({ ...args, speed: 'standard' }) }).args[6]).toBe(
      2000,
    );
  });

  it('refuses what the contract would revert on', () => {
    expect(() => depositForBurnCalldata({ ...args, amount: 0n })).toThrow(DepositForBurnError);
    expect(() => depositForBurnCalldata({ ...args, maxFee: args.amount })).toThrow(DepositForBurnError);
    expect(() => depositForBurnCalldata({ ...args, mintRecipient: `0x${'00'.repeat(32)}` })).toThrow(DepositForBurnError);
    expect(() => depositForBurnCalldata({ ...args, amount: 10_000_000_000_001n, maxFee: 0n })).toThrow(DepositForBurnError);
  });
});
