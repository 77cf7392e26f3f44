// What each mode's reconciliation reads, from configuration: the Solana treasury, and the EVM chains and Tron of the
// mode's network that have an endpoint and tokens, Tron's collector where TRON_DEPOSIT_COLLECTOR_<MODE> is set.
import { describe, expect, it } from 'vitest';
import { loadChainsConfig } from '../../config/chains';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { treasuryViewsFromConfig } from '../../worker/treasuryViews';

const TREASURY = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
const MINT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
const USDT_TRON = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
const COLLECTOR_TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

describe('treasury views from configuration', () => {
  it("adds each EVM chain with an RPC URL and tokens, and Tron where its HTTP API is set, with the mode's collectors", () => {
    const chains = loadChainsConfig({
      RPC_URLS_SOLANA_TESTNET: 'http://127.0.0.1:8899',
      TOKEN_USDC_SOLANA_TESTNET: `${MINT}:6`,
      RPC_URLS_BASE_TESTNET: 'http://127.0.0.1:8545',
      TRON_HTTP_API_URL_TESTNET: 'http://127.0.0.1:8090',
      TOKEN_USDT_TRON_TESTNET: `${USDT_TRON}:6`,
    });
    const [view] = treasuryViewsFromConfig(
      {
        solanaTreasuryAddresses: { test: TREASURY, live: undefined },
        depositCollectors: { test: undefined, live: undefined },
        tronDepositCollectors: { test: COLLECTOR_TRON, live: undefined },
      },
      createChainRegistry(chains),
      chains.tronHttpApi,
    );
    expect(view?.evmChains?.map((c) => [c.chain, c.tokens.map((t) => t.symbol)])).toEqual([['base', ['USDC']]]);
    expect(view?.collectors).toBeUndefined();
    expect(view?.tron).toMatchObject({ tokens: [{ symbol: 'USDT', address: USDT_TRON }], collector: COLLECTOR_TRON });

    const [withoutTron] = treasuryViewsFromConfig(
      { solanaTreasuryAddresses: { test: TREASURY, live: undefined } },
      createChainRegistry(chains),
    );
    expect(withoutTron?.tron).toBeUndefined();
  });
});
