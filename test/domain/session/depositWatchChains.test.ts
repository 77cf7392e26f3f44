// Where a session's deposit address is watched: an EVM address on every EVM chain of its network with a token
// contract, since the same address receives on all of them; a Solana or Tron address on its own chain.
import { describe, expect, it } from 'vitest';
import { createChainRegistry } from '../../../domain/chains/chainRegistry';
import { depositWatchChains } from '../../../domain/session/depositWatchChains';
import { loadChainsConfig } from '../../../config/chains';

const deployments = createChainRegistry(loadChainsConfig({})).all();

describe('depositWatchChains', () => {
  it('watches an EVM address on every EVM chain of the network that has a token contract, the chosen one first', () => {
    const chains = depositWatchChains('base', 'testnet', deployments);
    expect(chains[0]).toBe('base');
    expect(new Set(chains)).toEqual(
      new Set(deployments.filter((d) => d.family === 'evm' && d.network === 'testnet' && d.tokens.length > 0).map((d) => d.chain)),
    );
    expect(chains).toEqual(expect.arrayContaining(['ethereum', 'polygon', 'arbitrum', 'optimism', 'base']));
    expect(chains).toHaveLength(new Set(chains).size);
  });

  it('leaves out EVM chains without a token contract on the network (bsc has none on testnet by default)', () => {
    expect(depositWatchChains('base', 'testnet', deployments)).not.toContain('bsc');
    expect(depositWatchChains('base', 'mainnet', deployments)).toContain('bsc');
    const tokenless = deployments.map((d) => (d.chain === 'polygon' && d.network === 'mainnet' ? { ...d, tokens: [] } : d));
    expect(depositWatchChains('ethereum', 'mainnet', tokenless)).not.toContain('polygon');
  });

  it('watches a Solana or Tron address on its own chain only', () => {
    expect(depositWatchChains('solana', 'testnet', deployments)).toEqual(['solana']);
    expect(depositWatchChains('tron', 'mainnet', deployments)).toEqual(['tron']);
  });
});
