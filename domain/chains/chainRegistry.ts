/**
 * Chain registry: everything the service needs to know about one chain on one network (`testnet` serves
 * `mk_test_` sessions, `mainnet` serves `mk_live_`): RPC endpoints, the chain id the node must report, the
 * accepted USDC/USDT contracts with their decimals, confirmations required and block time.
 *
 * It lives in domain/ rather than indexers/ because select-payment (activities) must quote the very token
 * contract and confirmation count the indexer watches: a local test chain configures its own deployed tokens,
 * and both sides have to see the same override. It is a pure function of the parsed configuration.
 */
import { CHAIN_FACTS, CHAINS, TOKENS, type Chain, type ChainFacts, type TokenSymbol } from './chains';
import { TESTNETS, tokenContract, type Network } from './tokenContracts';

export interface TokenOverride {
  address: string;
  decimals: number;
}

/** One chain on one network as configured (config/chains.ts parses it from the environment). */
export interface ChainNetworkConfig {
  /** HTTP(S) JSON-RPC endpoints; each retry of a failed call goes to the next one. Empty: not indexed. */
  rpcUrls: string[];
  /** WS(S) endpoints for eth_subscribe newHeads (EVM only): blocks are read as they arrive, polling slows down. */
  wsUrls: string[];
  /** Replaces the chain id the node must report (a local test node is 31337, not the public testnet's id). */
  chainId?: number;
  /** First block scanned when no cursor exists yet. */
  startBlock?: bigint;
  tokens: Partial<Record<TokenSymbol, TokenOverride>>;
}

/** What the registry is built from: the parsed configuration of every chain on every network. */
export interface ChainNetworks {
  networks: Record<Chain, Record<Network, ChainNetworkConfig>>;
}

export interface TokenDeployment {
  symbol: TokenSymbol;
  /** EVM: as configured (EIP-55 or lowercase); compare case-insensitively. */
  address: string;
  decimals: number;
}

export interface ChainDeployment {
  chain: Chain;
  network: Network;
  family: ChainFacts['family'];
  /** What eth_chainId must answer; undefined where the chain has no numeric id (solana, tron). */
  chainId: number | undefined;
  rpcUrls: string[];
  /** Websocket endpoints for new-head subscriptions (EVM); empty: the indexer polls. */
  wsUrls: string[];
  tokens: TokenDeployment[];
  /** Blocks including the deposit's own (docs/api.md#chains-and-tokens). */
  confirmations: number;
  blockTimeMs: number;
  startBlock: bigint | undefined;
}

export interface ChainRegistry {
  get(chain: Chain, network: Network): ChainDeployment;
  all(): ChainDeployment[];
  token(chain: Chain, network: Network, symbol: TokenSymbol): TokenDeployment | undefined;
}

export function createChainRegistry(config: ChainNetworks): ChainRegistry {
  const deployments = new Map<string, ChainDeployment>();
  const key = (chain: Chain, network: Network) => `${chain}:${network}`;
  for (const chain of CHAINS) {
    const facts = CHAIN_FACTS[chain];
    for (const network of ['testnet', 'mainnet'] as const) {
      const configured = config.networks[chain][network];
      const tokens: TokenDeployment[] = [];
      for (const symbol of TOKENS) {
        const contract = configured.tokens[symbol] ?? tokenContract(symbol, chain, network);
        if (contract) tokens.push({ symbol, address: contract.address, decimals: contract.decimals });
      }
      const publishedId = network === 'mainnet' ? facts.chainId : TESTNETS[chain].chainId;
      deployments.set(key(chain, network), {
        chain,
        network,
        family: facts.family,
        chainId: configured.chainId ?? (publishedId === undefined ? undefined : Number.parseInt(publishedId, 16)),
        rpcUrls: configured.rpcUrls,
        wsUrls: configured.wsUrls,
        tokens,
        confirmations: facts.confirmations,
        blockTimeMs: Math.round(facts.averageBlockTimeSeconds * 1000),
        startBlock: configured.startBlock,
      });
    }
  }
  const get = (chain: Chain, network: Network): ChainDeployment => {
    const deployment = deployments.get(key(chain, network));
    if (!deployment) throw new Error(`no chain deployment ${chain}:${network}`);
    return deployment;
  };
  return {
    get,
    all: () => [...deployments.values()],
    token: (chain, network, symbol) => get(chain, network).tokens.find((token) => token.symbol === symbol),
  };
}
