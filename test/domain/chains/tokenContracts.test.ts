import { sha256 } from '@noble/hashes/sha2.js';
import { base58, createBase58check } from '@scure/base';
import { getAddress, isAddress } from 'viem';
import { arbitrumSepolia, baseSepolia, bscTestnet, optimismSepolia, polygonAmoy, sepolia } from 'viem/chains';
import { describe, expect, it } from 'vitest';
import { CHAIN_FACTS, CHAINS, TOKENS } from '../../../domain/chains/chains';
import type { Chain, TokenSymbol } from '../../../domain/chains/chains';
import { TESTNETS, TOKEN_CONTRACTS, tokenContract } from '../../../domain/chains/tokenContracts';
import type { Network, TokenContract } from '../../../domain/chains/tokenContracts';

const NETWORKS: readonly Network[] = ['mainnet', 'testnet'];
const tronBase58check = createBase58check(sha256);

interface Listed {
  pair: string;
  chain: Chain;
  contract: TokenContract;
}

function listed(network: Network): Listed[] {
  return TOKENS.flatMap((token) =>
    CHAINS.flatMap((chain) => {
      const contract = TOKEN_CONTRACTS[token][chain][network];
      return contract ? [{ pair: `${token}/${chain}`, chain, contract }] : [];
    }),
  );
}

function unavailable(network: Network): string[] {
  return TOKENS.flatMap((token) =>
    CHAINS.filter((chain) => TOKEN_CONTRACTS[token][chain][network] === null).map((chain) => `${token}/${chain}`),
  );
}

describe('token contract registry', () => {
  it('has an entry for both networks for each of the 16 token/chain pairs', () => {
    expect(Object.keys(TOKEN_CONTRACTS).sort()).toEqual([...TOKENS].sort());
    for (const token of TOKENS) {
      expect(Object.keys(TOKEN_CONTRACTS[token]).sort()).toEqual([...CHAINS].sort());
      for (const chain of CHAINS) {
        expect(Object.keys(TOKEN_CONTRACTS[token][chain]).sort()).toEqual(['mainnet', 'testnet']);
      }
    }
  });

  it('offers every pair on mainnet except USDC on tron, which Circle discontinued', () => {
    expect(listed('mainnet')).toHaveLength(15);
    expect(unavailable('mainnet')).toEqual(['USDC/tron']);
  });

  it('has testnet tokens only where Circle publishes test USDC', () => {
    expect(listed('testnet').map((entry) => entry.pair)).toEqual([
      'USDC/ethereum',
      'USDC/polygon',
      'USDC/arbitrum',
      'USDC/optimism',
      'USDC/base',
      'USDC/solana',
    ]);
  });

  it('uses 6 decimals everywhere except the 18-decimal Binance-Peg tokens on bsc', () => {
    for (const network of NETWORKS) {
      for (const { chain, contract } of listed(network)) {
        expect(contract.decimals).toBe(chain === 'bsc' ? 18 : 6);
      }
    }
  });

  it('writes every EVM address as a valid EIP-55 checksummed address', () => {
    for (const network of NETWORKS) {
      for (const { pair, chain, contract } of listed(network)) {
        if (CHAIN_FACTS[chain].family !== 'evm') continue;
        expect(isAddress(contract.address, { strict: true }), pair).toBe(true);
        expect(getAddress(contract.address), pair).toBe(contract.address);
      }
    }
  });

  it('writes every solana mint as base58 of a 32-byte public key', () => {
    for (const network of NETWORKS) {
      for (const { pair, chain, contract } of listed(network)) {
        if (chain !== 'solana') continue;
        expect(base58.decode(contract.address), pair).toHaveLength(32);
      }
    }
  });

  it('writes every tron address as base58check of 0x41 and a 20-byte account', () => {
    for (const network of NETWORKS) {
      for (const { pair, chain, contract } of listed(network)) {
        if (chain !== 'tron') continue;
        const payload = tronBase58check.decode(contract.address);
        expect(payload, pair).toHaveLength(21);
        expect(payload[0], pair).toBe(0x41);
      }
    }
  });

  it('never gives two pairs the same address on one network', () => {
    for (const network of NETWORKS) {
      // Hex is case-insensitive, base58 is not.
      const addresses = listed(network).map(({ chain, contract }) =>
        CHAIN_FACTS[chain].family === 'evm' ? contract.address.toLowerCase() : contract.address,
      );
      expect(new Set(addresses).size).toBe(addresses.length);
    }
  });

  it('marks exactly the bridged and Binance-Peg tokens as non-canonical, each with a note', () => {
    const nonCanonical = listed('mainnet').filter(({ contract }) => !contract.canonical);
    expect(nonCanonical.map((entry) => entry.pair)).toEqual(['USDC/bsc', 'USDT/base', 'USDT/bsc']);
    for (const { pair, contract } of nonCanonical) expect(contract.note, pair).toBeTruthy();
    expect(listed('testnet').every(({ contract }) => contract.canonical)).toBe(true);
  });

  it('holds the well-known addresses', () => {
    const spotChecks: [TokenSymbol, Chain, Network, string][] = [
      ['USDC', 'ethereum', 'mainnet', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
      ['USDC', 'polygon', 'mainnet', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'],
      ['USDC', 'arbitrum', 'mainnet', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831'],
      ['USDC', 'optimism', 'mainnet', '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'],
      ['USDC', 'base', 'mainnet', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
      ['USDC', 'solana', 'mainnet', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
      ['USDT', 'ethereum', 'mainnet', '0xdAC17F958D2ee523a2206206994597C13D831ec7'],
      ['USDT', 'arbitrum', 'mainnet', '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9'],
      ['USDT', 'tron', 'mainnet', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
      ['USDT', 'solana', 'mainnet', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'],
      ['USDC', 'ethereum', 'testnet', '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238'],
      ['USDC', 'base', 'testnet', '0x036CbD53842c5426634e7929541eC2318f3dCF7e'],
      ['USDC', 'solana', 'testnet', '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU'],
    ];
    for (const [token, chain, network, address] of spotChecks) {
      expect(tokenContract(token, chain, network)?.address, `${token}/${chain}/${network}`).toBe(address);
    }
  });

  it('answers lookups from the table, null where a pair is unavailable', () => {
    expect(tokenContract('USDT', 'bsc', 'mainnet')).toBe(TOKEN_CONTRACTS.USDT.bsc.mainnet);
    expect(tokenContract('USDC', 'tron', 'mainnet')).toBeNull();
    expect(tokenContract('USDT', 'ethereum', 'testnet')).toBeNull();
  });
});

describe('test networks', () => {
  it('gives each EVM chain the chain id of its test network, and solana and tron none', () => {
    const expected: Partial<Record<Chain, number>> = {
      ethereum: sepolia.id,
      polygon: polygonAmoy.id,
      arbitrum: arbitrumSepolia.id,
      optimism: optimismSepolia.id,
      base: baseSepolia.id,
      bsc: bscTestnet.id,
    };
    for (const chain of CHAINS) {
      const id = expected[chain];
      expect(TESTNETS[chain].chainId, chain).toBe(id === undefined ? undefined : `0x${id.toString(16)}`);
    }
  });
});
