// The CCTP V2 receive on the local Solana chain: the production builder's `receive_message`, signed by the
// treasury and sent through @solana/kit's RPC client to the chain, where the stand-in for Circle's programs
// (toolchain/localSolana/cctpReceiveStandIn.ts) credits the treasury's USDC account once per nonce after checking
// the attestation; the production used-nonce check reads the account the receive created.
import { randomBytes } from 'node:crypto';
import {
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  getAddressEncoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  AccountRole,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { keccak256, toBytes } from 'viem';
import { sign } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { feeRecipientTokenAccount, receiveMessageInstruction } from '../../signer/cctp/receiveMessageInstruction';
import { isNonceUsed } from '../../signer/cctp/usedNonce';
import { signTreasuryTransaction } from '../../signer/payouts/payoutTransaction';
import { associatedUsdcAccount } from '../../domain/addresses/solanaTokenAccount';
import { TOKEN_MESSENGER_MINTER_V2_PROGRAM } from '../../domain/cctp/receiveMessageAccounts';
import { startLocalSolana, type LocalSolana } from '../../toolchain/localSolana/localSolana';
import { freePort } from '../../toolchain/ports';

/** Hardhat account #1's published test key: the local attester the attestation stand-in signs with. */
const LOCAL_ATTESTER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
/** Hardhat account #2's published test key: no attester here. */
const STRANGER_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const SLOT_MS = 10;
const BASE_DOMAIN = 6;
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

let local: LocalSolana;
let rpc: ReturnType<typeof createSolanaRpc>;
let treasury: KeyPairSigner;
let treasuryUsdc: Awaited<ReturnType<typeof associatedUsdcAccount>>;

beforeAll(async () => {
  local = await startLocalSolana({ port: await freePort(), slotMs: SLOT_MS });
  rpc = createSolanaRpc(local.rpcUrl);
  treasury = await createKeyPairSignerFromBytes(getBase58Encoder().encode(local.treasury.secretKeyBase58));
  treasuryUsdc = await associatedUsdcAccount(treasury.address, local.usdcMint);
});
afterAll(async () => local?.stop());

const word = (value: bigint) => toBytes(value, { size: 32 });
const u32 = (value: number) => toBytes(value, { size: 4 });

/** An attested MessageV2 as the attestation API returns it: a Base burn of `amount` to the treasury's USDC account. */
function burnMessage(amount: bigint, options: { feeExecuted?: bigint; destinationDomain?: number } = {}): Uint8Array {
  const body = [
    ...u32(1),
    ...toBytes(BASE_USDC, { size: 32 }),
    ...getAddressEncoder().encode(treasuryUsdc),
    ...word(amount),
    ...randomBytes(32),
    ...word(1_000n),
    ...word(options.feeExecuted ?? 0n),
    ...word(0n),
  ];
  return new Uint8Array([
    ...u32(1),
    ...u32(BASE_DOMAIN),
    ...u32(options.destinationDomain ?? 5),
    ...randomBytes(32),
    ...toBytes('0x00000000000000000000000028b5a0e9c621a5badaa536219b3a228c8168cf5d'),
    ...getAddressEncoder().encode(TOKEN_MESSENGER_MINTER_V2_PROGRAM),
    ...new Uint8Array(32),
    ...u32(2000),
    ...u32(2000),
    ...body,
  ]);
}

async function attest(message: Uint8Array, privateKey: `0x${string}` = LOCAL_ATTESTER_KEY): Promise<Uint8Array> {
  return toBytes(await sign({ hash: keccak256(message), privateKey, to: 'hex' }));
}

async function balance(): Promise<bigint> {
  return BigInt((await rpc.getTokenAccountBalance(treasuryUsdc).send()).value.amount);
}

/** Signs a receive with the treasury and sends it through the RPC client; resolves once its block is confirmed. */
async function receive(
  message: Uint8Array,
  attestation: Uint8Array,
  options: { skipPreflight?: boolean; edit?: (instruction: Instruction) => Instruction } = {},
) {
  const built = await receiveMessageInstruction({
    payer: treasury,
    message,
    attestation,
    usdcMint: local.usdcMint,
    feeRecipientTokenAccount: await feeRecipientTokenAccount(rpc, local.usdcMint),
  });
  const instruction = options.edit ? options.edit(built) : built;
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const transaction = await signTreasuryTransaction(treasury, lifetime, [instruction]);
  const signature = await rpc
    .sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64', skipPreflight: options.skipPreflight })
    .send();
  expect(signature).toBe(getSignatureFromTransaction(transaction));
  for (;;) {
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return status;
    await new Promise((resolve) => setTimeout(resolve, SLOT_MS));
  }
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE))
    throw new Error(`expected a preflight refusal, got ${String(error)}`);
  return JSON.stringify(error.context, (_, value: unknown) => (typeof value === 'bigint' ? Number(value) : value));
}

/** How a program's custom error ends its logs, as the preflight refusal carries them. */
const customError = (code: number) => `custom program error: 0x${code.toString(16)}"`;
const nonceOf = (message: Uint8Array) => message.slice(12, 44);

describe('CCTP V2 receive on the local Solana chain', () => {
  test('credits the treasury exactly the amount less the fee, once per nonce; the used-nonce check follows the chain', async () => {
    const message = burnMessage(25_000_000n, { feeExecuted: 1_000n });
    const attestation = await attest(message);
    expect(await isNonceUsed(rpc, nonceOf(message))).toBe(false);
    const before = await balance();
    const feeAccount = await feeRecipientTokenAccount(rpc, local.usdcMint);
    const feesBefore = BigInt((await rpc.getTokenAccountBalance(feeAccount).send()).value.amount);

    const status = await receive(message, attestation);
    expect(status.err).toBeNull();
    expect(await balance()).toBe(before + 25_000_000n - 1_000n);
    expect(BigInt((await rpc.getTokenAccountBalance(feeAccount).send()).value.amount)).toBe(feesBefore + 1_000n);
    expect(await isNonceUsed(rpc, nonceOf(message))).toBe(true);

    expect(await refusal(receive(message, attestation))).toContain(customError(0));
    expect(await balance()).toBe(before + 24_999_000n);
  });

  test('a replay sent without preflight lands as a failed transaction, as a node records one: fee paid, nothing credited', async () => {
    const message = burnMessage(5_000_000n);
    const attestation = await attest(message);
    await receive(message, attestation);
    const before = await balance();
    const status = await receive(message, attestation, { skipPreflight: true });
    expect(status.err).toEqual({ InstructionError: [0n, { Custom: 0n }] });
    expect(await balance()).toBe(before);
  });

  test('refuses an attestation by another key, a message for another domain and a fee above the amount; nothing minted, nonce unused', async () => {
    const before = await balance();
    const forged = burnMessage(7_000_000n);
    expect(await refusal(receive(forged, await attest(forged, STRANGER_KEY)))).toContain(customError(6027));
    const truncated = burnMessage(7_000_000n);
    expect(await refusal(receive(truncated, (await attest(truncated)).subarray(0, 64)))).toContain(customError(6028));
    const elsewhere = burnMessage(7_000_000n, { destinationDomain: 6 });
    await expect(receive(elsewhere, await attest(elsewhere))).rejects.toThrow("not Solana's 5");
    const greedy = burnMessage(7_000_000n, { feeExecuted: 7_000_000n });
    expect(await refusal(receive(greedy, await attest(greedy)))).toContain(customError(6014));
    expect(await balance()).toBe(before);
    for (const message of [forged, truncated, greedy]) expect(await isNonceUsed(rpc, nonceOf(message))).toBe(false);
  });

  test('refuses an account list the program would not take: another account in a PDA’s place, a read-only recipient', async () => {
    const before = await balance();
    const message = burnMessage(3_000_000n);
    const attestation = await attest(message);
    const replaced =
      (at: number, change: (account: NonNullable<Instruction['accounts']>[number]) => NonNullable<Instruction['accounts']>[number]) =>
      (instruction: Instruction) => ({
        ...instruction,
        accounts: instruction.accounts?.map((account, i) => (i === at ? change(account) : account)),
      });
    // Another account in used_nonce's place (4) would let one message be received once per account chosen.
    expect(
      await refusal(receive(message, attestation, { edit: replaced(4, (account) => ({ ...account, address: local.usdcMint })) })),
    ).toContain(customError(2006));
    expect(
      await refusal(receive(message, attestation, { edit: replaced(15, (account) => ({ ...account, role: AccountRole.READONLY })) })),
    ).toContain(customError(2000));
    expect(await balance()).toBe(before);
    expect(await isNonceUsed(rpc, nonceOf(message))).toBe(false);
  });
});
