// The local EVM chain the dev commands (`npm start`, `npm run demo`) index when no RPC_URLS_* are configured: a
// Hardhat node on loopback with a 6-decimal USDC test token, standing in for base's test network. The chain
// variables it returns point the chain registry there, so select-payment quotes the very token contract and
// chain id the indexer watches. The chain carries the inventory path's contracts too: the TokenMessengerV2 stand-in
// burning the test USDC, whose burns the loopback attestation stand-in (startDevAttestation) attests for the local
// Solana chain, and the deposit contracts (devDepositContracts.ts): test sessions get forwarder addresses, whose
// sweeps land in a collector that burns to the local Solana treasury's USDC account. A USDT test token too, and Uniswap
// V3 from its npm artifacts with a USDT/USDC pool at 1:1 that the collector swaps its USDT through (the signer's
// SWAP_ROUTER_/SWAP_QUOTER_BASE_TESTNET, in `swapContracts`).
import { getAddress, parseEther, toHex, type Address, type HDAccount, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { envSuffix } from '../../config/chains';
import { solanaAddressBytes32 } from '../../domain/cctp/depositForBurn';
import { CCTP_SOURCE_DOMAINS } from '../../domain/cctp/domains';
import { CHAIN_FACTS, type Chain } from '../../domain/chains/chains';
import { startAttestationServer, type AttestationServer } from '../cctp/attestationServer';
import { deployCctpStandIn, type CctpStandIn } from '../cctp/cctpStandIn';
import { localSolanaTreasuryUsdcAccount } from '../localSolana/localSolana';
import { DEFAULT_SWAP_MAX_DEVIATION_BPS, DEFAULT_SWAP_POOL_FEE } from '../../domain/swaps/swap';
import { deployUniswapV3, seedPool } from '../uniswap/uniswapV3';
import { configureDevCollectorSwaps, deployDevDepositContracts, type DevDepositContracts } from './devDepositContracts';
import { createLocalChain, HARDHAT_MNEMONIC, type LocalChain } from './localChain';

/** The chain whose test network the local node replaces: test-mode sessions paying on it are paid locally. */
export const DEV_CHAIN = 'base' satisfies Chain;
export const DEV_USDC_DECIMALS = 6;
/**
 * The customer's wallet. Test-mode deposit addresses come from the Hardhat mnemonic too, as m/44'/60'/0'/0/<i>,
 * the very accounts Hardhat funds; the payer is account 1' of that mnemonic, so it is never a session's deposit
 * address and a payment is never a transfer to oneself.
 */
export const DEV_PAYER_PATH = "m/44'/60'/1'/0/0";
const PAYER_USDC = 1_000_000n * 10n ** BigInt(DEV_USDC_DECIMALS);
const PAYER_ETH = parseEther('1000');

export interface DevChain {
  local: LocalChain;
  chain: Chain;
  usdc: Address;
  /** Ethereum USDT's kind: approve and transfer return nothing. */
  usdt: Address;
  /** SwapRouter02 and QuoterV2 over the USDT/USDC pool: SWAP_ROUTER_ and SWAP_QUOTER_BASE_TESTNET. */
  swapContracts: { router: Address; quoter: Address };
  payer: HDAccount;
  /** Development only: derived from Hardhat's public mnemonic. */
  payerPrivateKey: Hex;
  payerUsdc: bigint;
  depositContracts: DevDepositContracts;
  /** TokenMessengerV2 and MessageTransmitterV2 stand-ins, in the CCTP domain of the chain played. */
  cctp: CctpStandIn;
  /** RPC_URLS_, CHAIN_ID_ and TOKEN_USDC_ of the chain's test network, as config/chains.ts reads them. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startDevChain(options: { port: number }): Promise<DevChain> {
  const local = await createLocalChain({ port: options.port });
  try {
    const usdc = getAddress(await local.deployToken({ symbol: 'USDC', name: 'USD Coin (local test token)', decimals: DEV_USDC_DECIMALS }));
    const usdt = getAddress(
      await local.deployToken({ symbol: 'USDT', name: 'Tether USD (local test token)', decimals: DEV_USDC_DECIMALS, kind: 'noReturn' }),
    );
    const payer = mnemonicToAccount(HARDHAT_MNEMONIC, { path: DEV_PAYER_PATH });
    const payerKey = payer.getHdKey().privateKey;
    if (!payerKey) throw new Error(`no private key at ${DEV_PAYER_PATH}`);
    await local.fund(payer.address, PAYER_ETH);
    await local.mint(usdc, payer.address, PAYER_USDC);
    await local.mint(usdt, payer.address, PAYER_USDC);
    const { cctp, depositContracts } = await deployInventoryContracts(local, usdc);
    const uniswap = await deployUniswapV3(local);
    await seedPool(local, uniswap, { tokenA: usdt, tokenB: usdc, fee: DEFAULT_SWAP_POOL_FEE, wholeTokens: 10_000_000n });
    await configureDevCollectorSwaps(local, depositContracts.collector, {
      swapRouter: uniswap.swapRouter,
      usdc,
      maxDeviationBps: DEFAULT_SWAP_MAX_DEVIATION_BPS,
    });
    // What the service reads "settled" (the confirmation depth below the head: the CCTP transfer's collector
    // balance) must be a block where the contracts exist, as on a real chain long past their deployment: a fresh
    // node's head is still within that depth of its genesis, where balanceOf answers no data at all.
    await local.mine(CHAIN_FACTS[DEV_CHAIN].confirmations);
    const suffix = envSuffix(DEV_CHAIN, 'testnet');
    return {
      local,
      chain: DEV_CHAIN,
      usdc,
      usdt,
      swapContracts: { router: uniswap.swapRouter, quoter: uniswap.quoter },
      payer,
      payerPrivateKey: toHex(payerKey),
      payerUsdc: PAYER_USDC,
      depositContracts,
      cctp,
      env: {
        [`RPC_URLS_${suffix}`]: local.rpcUrl,
        // Hardhat answers websockets on the same port: blocks reach the indexer as they are mined.
        [`WS_URLS_${suffix}`]: local.rpcUrl.replace(/^http/, 'ws'),
        [`CHAIN_ID_${suffix}`]: String(local.chainId),
        [`TOKEN_USDC_${suffix}`]: `${usdc}:${DEV_USDC_DECIMALS}`,
        [`TOKEN_USDT_${suffix}`]: `${usdt}:${DEV_USDC_DECIMALS}`,
      },
      stop: local.stop,
    };
  } catch (error) {
    await local.stop();
    throw error;
  }
}

/**
 * The TokenMessengerV2 stand-in burning `usdc` in the played chain's CCTP domain, then the deposit contracts whose
 * collector burns through it to the local Solana treasury's USDC account. One deployer account: its transactions
 * go one after the other, the messenger first, since its address is part of the collector's.
 */
export async function deployInventoryContracts(
  local: LocalChain,
  usdc: Address,
): Promise<{ cctp: CctpStandIn; depositContracts: DevDepositContracts }> {
  const cctp = await deployCctpStandIn(local, { burnToken: usdc, localDomain: CCTP_SOURCE_DOMAINS[DEV_CHAIN] });
  const mintRecipient = solanaAddressBytes32(await localSolanaTreasuryUsdcAccount());
  return { cctp, depositContracts: await deployDevDepositContracts(local, { tokenMessenger: cctp.tokenMessenger, mintRecipient }) };
}

/**
 * The loopback stand-in of Circle's attestation service for the chain's burns (CCTP_ATTESTATION_URL), attesting at
 * once; expiry counts from `destinationSlot`, the local Solana chain's slot, as Iris counts from Solana's.
 */
export function startDevAttestation(
  devChain: Pick<DevChain, 'local' | 'cctp'>,
  destinationSlot: () => Promise<bigint>,
): Promise<AttestationServer> {
  return startAttestationServer({
    publicClient: devChain.local.publicClient,
    messageTransmitter: devChain.cctp.messageTransmitter,
    sourceDomain: devChain.cctp.localDomain,
    destinationBlock: destinationSlot,
  });
}
