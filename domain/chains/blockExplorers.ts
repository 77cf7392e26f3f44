// Where a person looks a transaction up: the public block explorer of each chain, mainnet or test network.
import type { Chain } from './chains';

type Network = 'mainnet' | 'testnet';

const EXPLORERS: Record<Chain, Record<Network, string>> = {
  ethereum: { mainnet: 'https://etherscan.io/tx/', testnet: 'https://sepolia.etherscan.io/tx/' },
  polygon: { mainnet: 'https://polygonscan.com/tx/', testnet: 'https://amoy.polygonscan.com/tx/' },
  arbitrum: { mainnet: 'https://arbiscan.io/tx/', testnet: 'https://sepolia.arbiscan.io/tx/' },
  optimism: { mainnet: 'https://optimistic.etherscan.io/tx/', testnet: 'https://sepolia-optimism.etherscan.io/tx/' },
  base: { mainnet: 'https://basescan.org/tx/', testnet: 'https://sepolia.basescan.org/tx/' },
  bsc: { mainnet: 'https://bscscan.com/tx/', testnet: 'https://testnet.bscscan.com/tx/' },
  solana: { mainnet: 'https://explorer.solana.com/tx/', testnet: 'https://explorer.solana.com/tx/' },
  tron: { mainnet: 'https://tronscan.org/#/transaction/', testnet: 'https://nile.tronscan.org/#/transaction/' },
};

export function transactionExplorerUrl(chain: Chain, network: Network, txHash: string): string {
  const url = `${EXPLORERS[chain][network]}${encodeURIComponent(txHash)}`;
  return chain === 'solana' && network === 'testnet' ? `${url}?cluster=devnet` : url;
}
