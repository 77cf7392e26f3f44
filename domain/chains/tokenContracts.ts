/**
 * Token contract registry: the USDC and USDT contract (on solana, the mint) for every chain of docs/api.md#chains-and-tokens,
 * per network. `mainnet` serves `mk_live_` keys, `testnet` serves `mk_test_` keys.
 *
 * Every address here was checked against a published source named in the comment beside it; change
 * one only against such a source. Locally and in CI the EVM test network is a node started by the test
 * harness, which deploys its own ERC-20 and configures it; the testnet addresses below apply when test
 * mode runs against the public test networks.
 */
import type { Chain, TokenSymbol } from './chains';

export type Network = 'mainnet' | 'testnet';

export interface TokenContract {
  /** EVM: EIP-55 checksummed hex. tron: base58check `T…`. solana: the SPL mint, base58. */
  address: string;
  /** Decimals the contract itself reports; amounts on chain are integers in these base units. */
  decimals: number;
  /**
   * True when the issuer itself names this contract as its token on this chain: Circle's USDC address
   * list, Tether's list of USD₮ and USD₮0 deployments. False for a bridge's or an exchange's
   * representation, which only the bridge or the exchange redeems.
   */
  canonical: boolean;
  /** What an operator needs to know about this choice. */
  note?: string;
}

export interface TokenDeployments {
  /** null: no contract the service accepts on this network (the reason is in the comment beside it). */
  mainnet: TokenContract | null;
  testnet: TokenContract | null;
}

export interface Testnet {
  name: string;
  /** Hex chain id, as CHAIN_FACTS writes the mainnet ones; absent where the chain has none. */
  chainId?: `0x${string}`;
}

/** Chain ids confirmed against viem's chain definitions (test/domain/chains/tokenContracts.test.ts checks them). */
export const TESTNETS: Record<Chain, Testnet> = {
  ethereum: { name: 'Sepolia', chainId: '0xaa36a7' },
  polygon: { name: 'Polygon Amoy', chainId: '0x13882' },
  arbitrum: { name: 'Arbitrum Sepolia', chainId: '0x66eee' },
  optimism: { name: 'OP Sepolia', chainId: '0xaa37dc' },
  base: { name: 'Base Sepolia', chainId: '0x14a34' },
  bsc: { name: 'BNB Smart Chain Testnet', chainId: '0x61' },
  solana: { name: 'Solana Devnet' },
  // Nile rather than Shasta: it is the TRON test network Tether's WDK moved to (WDK changelog).
  tron: { name: 'TRON Nile' },
};

// Sources cited below:
// - "Circle list": Circle's "USDC Contract Addresses" page (developers.circle.com/stablecoins/usdc-contract-addresses),
//   as reproduced in Circle's own repository circlefin/skills (plugins/circle/skills/use-usdc/SKILL.md).
// - "Tether list": Tether's WDK documentation, tetherto/wdk-docs skills/wdk/references/deployments.md, which lists
//   the native USD₮ deployments and the USD₮0 token addresses; USD₮0 is USD₮ locked on Ethereum and minted on
//   other chains through LayerZero, 1:1.
// - "Superchain token list": Optimism's token list, ethereum-optimism/ethereum-optimism.github.io data/*/data.json.
export const TOKEN_CONTRACTS: Record<TokenSymbol, Record<Chain, TokenDeployments>> = {
  USDC: {
    ethereum: {
      // Circle list; also Superchain token list (data/USDC).
      mainnet: { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6, canonical: true },
      // Circle list (testnet section).
      testnet: { address: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', decimals: 6, canonical: true },
    },
    polygon: {
      // Circle list; Circle blog "What you need to know: Native USDC on Polygon PoS" names both addresses.
      mainnet: {
        address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
        decimals: 6,
        canonical: true,
        note: 'Native USDC issued by Circle. The PoS-bridged USDC.e (0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174) is a different token and is not accepted: Circle no longer supports it.',
      },
      // Circle list (testnet section).
      testnet: { address: '0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582', decimals: 6, canonical: true },
    },
    arbitrum: {
      // Circle list. The USDC.e address is the one public Arbitrum integrations label "Bridged USDC".
      mainnet: {
        address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
        decimals: 6,
        canonical: true,
        note: 'Native USDC issued by Circle. The bridged USDC.e (0xFF970A61A04b1cA14834A43f5dE4533eBDDB5CC8) is a different token and is not accepted.',
      },
      // Circle list (testnet section).
      testnet: { address: '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d', decimals: 6, canonical: true },
    },
    optimism: {
      // Circle list; Superchain token list data/USDC (native) and data/BridgedUSDC (USDC.e).
      mainnet: {
        address: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
        decimals: 6,
        canonical: true,
        note: 'Native USDC issued by Circle. The bridged USDC.e (0x7F5c764cBc14f9669B88837ca1490cCa17c31607) is a different token and is not accepted.',
      },
      // Circle list (testnet section); Superchain token list (optimism-sepolia).
      testnet: { address: '0x5fd84259d66Cd46123540766Be93DFE6D43130D7', decimals: 6, canonical: true },
    },
    base: {
      // Circle list; Superchain token list data/USDC (native) and data/BridgedUSDC (USDbC).
      mainnet: {
        address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        decimals: 6,
        canonical: true,
        note: 'Native USDC issued by Circle. The bridged USDbC (0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA) is a different token and is not accepted.',
      },
      // Circle list (testnet section); Superchain token list (base-sepolia).
      testnet: { address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', decimals: 6, canonical: true },
    },
    bsc: {
      // Circle issues no USDC on BNB Chain (absent from the Circle list and from Circle Mint's supported chains).
      // Binance-Peg token as listed, with 18 decimals, in trustwallet/assets (smartchain) and beefyfinance/address-book (bsc).
      mainnet: {
        address: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d',
        decimals: 18,
        canonical: false,
        note: 'Binance-Peg USD Coin: issued by Binance and pegged 1:1 to USDC held by Binance; only Binance redeems it. The only widely used USDC on BNB Chain.',
      },
      // Circle publishes no USDC on the BNB Smart Chain testnet; a test deployment configures its own token.
      testnet: null,
    },
    solana: {
      // Circle list (mainnet and devnet mints).
      mainnet: { address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6, canonical: true },
      testnet: { address: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU', decimals: 6, canonical: true },
    },
    tron: {
      // Circle ended USDC on TRON: no minting since 2024-02-20, transfers and redemptions through Circle only
      // until February 2025 (Circle Mint "Supported Chains and Currencies"; Circle's announcement). Its former
      // contract TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8 is deliberately not accepted, as the issuer no longer
      // stands behind it; the pair is unavailable in live mode.
      mainnet: null,
      // No Circle test token on any TRON test network since the discontinuation.
      testnet: null,
    },
  },
  USDT: {
    ethereum: {
      // Tether list (native USD₮).
      mainnet: {
        address: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
        decimals: 6,
        canonical: true,
        note: 'Non-standard ERC-20: transfer() returns no bool, so transfers must tolerate an empty return value.',
      },
      // Tether publishes no test token. Its WDK docs point to a third-party Sepolia mock that they state is
      // not a Tether token; a test deployment configures its own ERC-20 instead.
      testnet: null,
    },
    polygon: {
      // Tether list (USD₮0 table; the token keeps the address of the original PoS-bridged USDT).
      // Also Tether's WDK ERC-4337 configuration ("USDT on Polygon") and beefyfinance/address-book (polygon).
      mainnet: {
        address: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
        decimals: 6,
        canonical: true,
        note: 'USD₮0 on Polygon PoS, at the address of the original PoS-bridged USDT.',
      },
      // Tether publishes no Amoy test token; a test deployment configures its own ERC-20.
      testnet: null,
    },
    arbitrum: {
      // Tether list (USD₮0 table); tetherto/wdk-protocol-bridge-usdt0-evm uses it as the Arbitrum token.
      mainnet: {
        address: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9',
        decimals: 6,
        canonical: true,
        note: 'USD₮0, at the address of the original Arbitrum-bridged USDT.',
      },
      // Tether publishes no Arbitrum Sepolia test token; a test deployment configures its own ERC-20.
      testnet: null,
    },
    optimism: {
      // Tether list (USD₮0 table). The legacy token is the one in the Superchain token list (data/USDT).
      mainnet: {
        address: '0x01bFF41798a0BcF287b996046Ca68b395DbC1071',
        decimals: 6,
        canonical: true,
        note: 'USD₮0, the USDT Tether lists for OP Mainnet. The older standard-bridge "Tether USD" (0x94b008aA00579c1307B0EF2c499aD98a8ce58e58) still circulates at its own address; it is a different token and is not accepted.',
      },
      // Tether publishes no OP Sepolia test token; a test deployment configures its own ERC-20.
      testnet: null,
    },
    base: {
      // Tether issues neither USD₮ nor USD₮0 on Base (absent from the Tether list). The most widely used USDT
      // there is the Base standard-bridge token listed as USDT for base in the Superchain token list (data/USDT).
      mainnet: {
        address: '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2',
        decimals: 6,
        canonical: false,
        note: 'Not issued by Tether: USDT bridged from Ethereum through the Base standard bridge, backed by USDT locked in that bridge and redeemable only by withdrawing through that bridge or by a swap.',
      },
      // No Tether test token on Base Sepolia; a test deployment configures its own ERC-20.
      testnet: null,
    },
    bsc: {
      // Tether issues no USDT on BNB Chain (absent from the Tether list). Binance-Peg token as listed, with
      // 18 decimals, in beefyfinance/address-book (bsc); Tether's WDK docs use it as bsc:USDT.
      mainnet: {
        address: '0x55d398326f99059fF775485246999027B3197955',
        decimals: 18,
        canonical: false,
        note: 'Binance-Peg BSC-USD: issued by Binance and pegged 1:1 to USDT held by Binance; only Binance redeems it. The only widely used USDT on BNB Chain.',
      },
      // No Tether test token on the BNB Smart Chain testnet; a test deployment configures its own token.
      testnet: null,
    },
    solana: {
      // Tether list (native USD₮ SPL mint); also used throughout Tether's WDK Solana docs.
      mainnet: { address: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', decimals: 6, canonical: true },
      // Tether publishes no devnet mint; a test deployment creates its own.
      testnet: null,
    },
    tron: {
      // Tether list (native USD₮ TRC-20); also used throughout Tether's WDK TRON docs.
      mainnet: {
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        decimals: 6,
        canonical: true,
        note: 'Same non-standard transfer() as the Ethereum contract (no bool return).',
      },
      // Tether publishes no Nile token (the Nile "USDT" tokens in circulation are third-party); a test
      // deployment configures its own TRC-20.
      testnet: null,
    },
  },
};

/** The contract accepted for `token` on `chain` in `network`, or null where the pair is unavailable. */
export function tokenContract(token: TokenSymbol, chain: Chain, network: Network): TokenContract | null {
  return TOKEN_CONTRACTS[token][chain][network];
}
