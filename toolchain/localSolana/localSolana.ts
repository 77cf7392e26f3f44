// The local Solana chain the dev commands (`npm start`, `npm run demo`) run when no RPC_URLS_SOLANA_* is
// configured: litesvm behind the JSON-RPC server on loopback, producing a block every slot as a cluster does, with
// a 6-decimal USDC mint, a treasury holding SOL and USDC, and the demo merchant's wallet (SOL, no USDC account:
// the first payout creates it). It stands in for Solana's test network; the variables it returns point the chain
// registry, the indexer and the signer there.
//
// The chain lives in memory, so every start is a fresh chain, as the local Hardhat chain is. Its keys are not:
// they derive from fixed public seeds, so the mint, the treasury and the merchant wallet keep their addresses
// across restarts and the database's sessions and payouts of an earlier run still name them. Like Hardhat's
// mnemonic, these keys are public: development only. Circle's CCTP V2 receive runs on the chain's stand-in
// (cctpReceiveStandIn.ts), trusting the local attester.
import { createHash } from 'node:crypto';
import { createKeyPairSignerFromPrivateKeyBytes, getBase58Decoder, getBase58Encoder, lamports, type Address } from '@solana/kit';
import { associatedUsdcAccount } from '../../domain/addresses/solanaTokenAccount';
import { payoutNonceAddresses } from '../../domain/settlement/payoutNonces';
import { envSuffix } from '../../config/chains';
import { LOCAL_ATTESTER_ADDRESS } from '../cctp/attester';
import { cctpReceiveStandIn, installTokenMessenger } from './cctpReceiveStandIn';
import { LocalSolanaChain } from './localSolanaChain';
import { startSolanaRpcServer } from './solanaRpcServer';
import { createMint, mintTo, type SentTransaction } from './splToken';

export const LOCAL_SOLANA_USDC_DECIMALS = 6;
const LAMPORTS_PER_SOL = 1_000_000_000n;
const DEFAULT_TREASURY_USDC = 1_000_000n * 10n ** BigInt(LOCAL_SOLANA_USDC_DECIMALS);
export const LOCAL_SOLANA_TREASURY_SOL = 100n;
export const LOCAL_SOLANA_MERCHANT_SOL = 1n;
/** A cluster's slot time. */
export const LOCAL_SOLANA_SLOT_MS = 400;

export interface LocalSolanaOptions {
  /** Loopback port of the JSON-RPC endpoint; 0: a free one. */
  port: number;
  /** USDC base units minted to the treasury; 1,000,000 USDC unless set. */
  treasuryUsdc?: bigint;
  /** Milliseconds between blocks; a cluster's 400 unless set. */
  slotMs?: number;
}

export interface LocalSolana {
  rpcUrl: string;
  /** The network whose place the chain takes: test-mode sessions on solana are paid and settled here. */
  network: 'testnet';
  usdcMint: Address;
  usdcDecimals: number;
  treasury: {
    address: Address;
    /** base58 of the 64-byte keypair (private seed, then public key), the encoding wallets export. */
    secretKeyBase58: string;
    usdc: bigint;
  };
  merchantWallet: Address;
  /** RPC_URLS_, TOKEN_USDC_ and INDEXER_START_BLOCK_ of solana's test network, as config/chains.ts reads them. */
  env: Record<string, string>;
  /** SOLANA_TREASURY_KEY_TEST: for the signer alone, never for the worker, API or indexers. */
  signerEnv: Record<string, string>;
  /** Mints USDC to `to`'s associated token account (created if missing), in the slot being filled. */
  mintUsdc(to: Address, amount: bigint): Promise<SentTransaction>;
  /** Credits SOL for fees, as a test validator's faucet does. */
  airdrop(to: Address, lamports: bigint): void;
  stop(): Promise<void>;
}

function seedOf(role: string): Uint8Array {
  return createHash('sha256').update(`stablecoin-checkout local solana ${role}`).digest();
}

/**
 * The treasury's USDC account, known before the chain starts (its keys derive from fixed seeds): the local EVM
 * chain's DepositCollector mints there, and its address is part of the collector's, hence of every deposit address.
 */
export async function localSolanaTreasuryUsdcAccount(): Promise<Address> {
  const [treasury, mint] = await Promise.all([
    createKeyPairSignerFromPrivateKeyBytes(seedOf('treasury')),
    createKeyPairSignerFromPrivateKeyBytes(seedOf('usdc mint')),
  ]);
  return associatedUsdcAccount(treasury.address, mint.address);
}

export async function startLocalSolana(options: LocalSolanaOptions): Promise<LocalSolana> {
  const chain = new LocalSolanaChain();
  const firstSlot = chain.currentSlot;
  const treasurySeed = seedOf('treasury');
  const treasury = await createKeyPairSignerFromPrivateKeyBytes(treasurySeed);
  const merchant = await createKeyPairSignerFromPrivateKeyBytes(seedOf('merchant'));
  const mint = await createMint(chain, LOCAL_SOLANA_USDC_DECIMALS, {
    authority: await createKeyPairSignerFromPrivateKeyBytes(seedOf('mint authority')),
    mint: await createKeyPairSignerFromPrivateKeyBytes(seedOf('usdc mint')),
  });
  const treasuryUsdc = options.treasuryUsdc ?? DEFAULT_TREASURY_USDC;
  chain.svm.airdrop(treasury.address, lamports(LOCAL_SOLANA_TREASURY_SOL * LAMPORTS_PER_SOL));
  chain.svm.airdrop(merchant.address, lamports(LOCAL_SOLANA_MERCHANT_SOL * LAMPORTS_PER_SOL));
  await mintTo(chain, mint, treasury.address, treasuryUsdc);
  // The treasury's payout nonce accounts exist from the start, as an operator's: payouts need not wait for their finality.
  chain.installNonceAccounts(
    (await payoutNonceAddresses(treasury.address)).map((p) => p.address),
    treasury.address,
  );
  const cctpFeeRecipient = await createKeyPairSignerFromPrivateKeyBytes(seedOf('cctp fee recipient'));
  installTokenMessenger(chain.svm, cctpFeeRecipient.address);
  await mintTo(chain, mint, cctpFeeRecipient.address, 0n);
  chain.installStandIn(
    cctpReceiveStandIn({ usdcMint: mint.address, feeRecipient: cctpFeeRecipient.address, attesters: [LOCAL_ATTESTER_ADDRESS] }),
  );
  chain.produce();

  const rpc = await startSolanaRpcServer(chain, options.port);
  const clock = setInterval(() => chain.produce(), options.slotMs ?? LOCAL_SOLANA_SLOT_MS);
  clock.unref();
  const suffix = envSuffix('solana', 'testnet');
  const secretKeyBase58 = getBase58Decoder().decode(new Uint8Array([...treasurySeed, ...getBase58Encoder().encode(treasury.address)]));
  return {
    rpcUrl: rpc.url,
    network: 'testnet',
    usdcMint: mint.address,
    usdcDecimals: LOCAL_SOLANA_USDC_DECIMALS,
    treasury: { address: treasury.address, secretKeyBase58, usdc: treasuryUsdc },
    merchantWallet: merchant.address,
    env: {
      [`RPC_URLS_${suffix}`]: rpc.url,
      [`TOKEN_USDC_${suffix}`]: `${mint.address}:${LOCAL_SOLANA_USDC_DECIMALS}`,
      // The chain has no slot before its genesis: an indexer starting a confirmation depth below the head would ask for them.
      [`INDEXER_START_BLOCK_${suffix}`]: String(firstSlot),
    },
    signerEnv: { SOLANA_TREASURY_KEY_TEST: secretKeyBase58 },
    mintUsdc: (to, amount) => mintTo(chain, mint, to, amount),
    airdrop: (to, amount) => void chain.svm.airdrop(to, lamports(amount)),
    stop: async () => {
      clearInterval(clock);
      await rpc.close();
    },
  };
}
