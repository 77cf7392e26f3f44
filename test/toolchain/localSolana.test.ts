// The local Solana chain of `npm start` and `npm run demo`, read and paid through its JSON-RPC endpoint with
// @solana/kit as a wallet and the payout writer would: the treasury's SOL and USDC, a 6-decimal mint, the
// merchant's wallet without a USDC account, the same addresses on every start, a payment followed to finalized,
// and a node's refusals (blockhash too old, preflight failure).
import { getTransferSolInstruction } from '@solana-program/system';
import {
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  isSolanaError,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  type KeyPairSigner,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { associatedTokenAccount, payUsdc, usdcBalance } from '../../bin/demo/solanaWallet';
import { freePort } from '../../toolchain/ports';
import {
  LOCAL_SOLANA_MERCHANT_SOL,
  LOCAL_SOLANA_TREASURY_SOL,
  startLocalSolana,
  type LocalSolana,
} from '../../toolchain/localSolana/localSolana';

const SOL = 1_000_000_000n;
const SLOT_MS = 10;

let local: LocalSolana;
let port: number;
let rpc: ReturnType<typeof createSolanaRpc>;

beforeAll(async () => {
  port = await freePort();
  local = await startLocalSolana({ port, treasuryUsdc: 1_000_000n * 10n ** 6n, slotMs: SLOT_MS });
  rpc = createSolanaRpc(local.rpcUrl);
});
afterAll(async () => local?.stop());

async function solTransfer(from: KeyPairSigner, blockhash: Awaited<ReturnType<typeof latestBlockhash>>) {
  const to = await generateKeyPairSigner();
  const transaction = await pipe(
    createTransactionMessage({ version: 0 }),
    (message) => setTransactionMessageFeePayerSigner(from, message),
    (message) => setTransactionMessageLifetimeUsingBlockhash(blockhash, message),
    (message) =>
      appendTransactionMessageInstructions(
        [getTransferSolInstruction({ source: from, destination: to.address, amount: lamports(SOL) })],
        message,
      ),
    (message) => signTransactionMessageWithSigners(message),
  );
  return rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' }).send();
}

async function latestBlockhash() {
  return (await rpc.getLatestBlockhash().send()).value;
}

async function blockHeightAbove(height: bigint): Promise<void> {
  while ((await rpc.getBlockHeight().send()) <= height) await new Promise((resolve) => setTimeout(resolve, SLOT_MS));
}

describe('the local Solana chain', () => {
  test('listens on the configured loopback port and names itself in the chain variables the registry reads', async () => {
    expect(local.rpcUrl).toBe(`http://127.0.0.1:${port}`);
    expect(local.env).toEqual({
      RPC_URLS_SOLANA_TESTNET: local.rpcUrl,
      TOKEN_USDC_SOLANA_TESTNET: `${local.usdcMint}:6`,
      INDEXER_START_BLOCK_SOLANA_TESTNET: expect.stringMatching(/^\d+$/),
    });
    // The indexer reads the block before its start first: the genesis, never a slot the chain cannot have.
    const start = BigInt(local.env.INDEXER_START_BLOCK_SOLANA_TESTNET ?? '');
    expect((await rpc.getBlock(start - 1n, { transactionDetails: 'none', rewards: false }).send())?.blockHeight).toBe(0n);
    expect(local.signerEnv).toEqual({ SOLANA_TREASURY_KEY_TEST: local.treasury.secretKeyBase58 });
  });

  test('holds a 6-decimal USDC mint, a treasury with SOL and USDC, and a merchant wallet without a USDC account', async () => {
    expect((await rpc.getTokenSupply(local.usdcMint).send()).value).toMatchObject({ decimals: 6, amount: '1000000000000' });
    expect((await rpc.getBalance(local.treasury.address).send()).value).toBe(LOCAL_SOLANA_TREASURY_SOL * SOL);
    const treasuryUsdc = await associatedTokenAccount(local.treasury.address, local.usdcMint);
    expect((await rpc.getTokenAccountBalance(treasuryUsdc).send()).value).toMatchObject({
      amount: '1000000000000',
      decimals: 6,
      uiAmountString: '1000000',
    });

    const merchant = (await rpc.getAccountInfo(local.merchantWallet, { encoding: 'base64' }).send()).value;
    expect(merchant).toMatchObject({ owner: '11111111111111111111111111111111', lamports: LOCAL_SOLANA_MERCHANT_SOL * SOL });
    const merchantUsdc = await associatedTokenAccount(local.merchantWallet, local.usdcMint);
    expect((await rpc.getAccountInfo(merchantUsdc, { encoding: 'base64' }).send()).value).toBeNull();
    await expect(rpc.getTokenAccountBalance(merchantUsdc).send()).rejects.toThrow(/could not find account/);
  });

  test('the treasury key is the exported keypair of the treasury address, and every start has the same addresses', async () => {
    const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(local.treasury.secretKeyBase58));
    expect(signer.address).toBe(local.treasury.address);
    const again = await startLocalSolana({ port: 0 });
    try {
      expect(again.rpcUrl).not.toBe(local.rpcUrl);
      expect({ mint: again.usdcMint, treasury: again.treasury.address, merchant: again.merchantWallet }).toEqual({
        mint: local.usdcMint,
        treasury: local.treasury.address,
        merchant: local.merchantWallet,
      });
    } finally {
      await again.stop();
    }
  });

  test('a USDC payment sent through the RPC is confirmed by the next block and finalized 32 blocks deep', async () => {
    const customer = await generateKeyPairSigner();
    local.airdrop(customer.address, SOL);
    await local.mintUsdc(customer.address, 30_000_000n);
    const to = (await generateKeyPairSigner()).address;
    const paid = await payUsdc({ rpcUrl: local.rpcUrl, from: customer, mint: local.usdcMint, decimals: 6, to, amount: 25_500_000n });
    expect(await usdcBalance(local.rpcUrl, to, local.usdcMint)).toBe(25_500_000n);
    expect(await usdcBalance(local.rpcUrl, customer.address, local.usdcMint)).toBe(4_500_000n);

    const status = async () =>
      (await rpc.getSignatureStatuses([paid.signature as Parameters<typeof rpc.getSignatureStatuses>[0][number]]).send()).value[0];
    expect(await status()).toMatchObject({ slot: paid.slot, err: null });
    while ((await status())?.confirmationStatus !== 'finalized') await new Promise((resolve) => setTimeout(resolve, SLOT_MS));
    expect(await status()).toMatchObject({ confirmations: null, confirmationStatus: 'finalized' });
    expect((await rpc.getSlot().send()) - paid.slot).toBeGreaterThanOrEqual(31n);
  });

  test('accepts a blockhash up to 150 blocks old and refuses an older one, as a cluster does', async () => {
    const payer = await generateKeyPairSigner();
    local.airdrop(payer.address, 10n * SOL);
    const recent = await latestBlockhash();
    await blockHeightAbove(recent.lastValidBlockHeight - 140n);
    await expect(solTransfer(payer, recent)).resolves.toEqual(expect.any(String));

    const old = await latestBlockhash();
    await blockHeightAbove(old.lastValidBlockHeight);
    const refused: unknown = await solTransfer(payer, old).catch((error: unknown) => error);
    expect(isSolanaError(refused, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(true);
    expect(isSolanaError((refused as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND)).toBe(true);
  });

  test('refuses in preflight a payment the sender cannot cover, and nothing of it lands', async () => {
    const customer = await generateKeyPairSigner();
    local.airdrop(customer.address, SOL);
    await local.mintUsdc(customer.address, 1_000_000n);
    const to = (await generateKeyPairSigner()).address;
    await expect(
      payUsdc({ rpcUrl: local.rpcUrl, from: customer, mint: local.usdcMint, decimals: 6, to, amount: 2_000_000n }),
    ).rejects.toThrow(/Transaction simulation failed/);
    expect(await usdcBalance(local.rpcUrl, to, local.usdcMint)).toBe(0n);
    expect((await rpc.getBalance(customer.address).send()).value).toBe(SOL);
  });
});
