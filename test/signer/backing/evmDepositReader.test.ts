// Above the re-read threshold the signer asks an EVM node itself what a deposit transferred: the
// token contract's Transfer log at the deposit's log index, to the deposit address, and its depth, on a local
// Hardhat chain with a real ERC-20. A transaction the node does not know is unseen (waited on), one that reverted is
// failed, one that credits nothing of the token to the address at that index is uncredited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createEvmDepositReader } from '../../../signer/backing/evmDepositReader';
import type { DepositReader } from '../../../domain/settlement/depositBacking';
import { createLocalChain, type LocalChain } from '../../../toolchain/localChain/localChain';

let chain: LocalChain;
let read: DepositReader;

beforeAll(async () => {
  chain = await createLocalChain();
  read = createEvmDepositReader(chain.rpcUrl);
});
afterAll(async () => {
  await chain?.stop();
});

const randomAddress = () => privateKeyToAccount(generatePrivateKey()).address;

describe('EVM deposit re-reader', () => {
  it('reads the Transfer to the deposit address at its log index, and its depth; anything else is unseen, failed or uncredited', async () => {
    const usdc = await chain.deployToken({ symbol: 'USDC', decimals: 6 });
    const usdt = await chain.deployToken({ symbol: 'USDT', decimals: 6 });
    const depositAddress = randomAddress();
    await chain.mint(usdc, chain.account(1).address, 9_000_000n);
    const sent = await chain.transfer(usdc, 1, depositAddress, 7_000_000n);
    await chain.mine(63);
    const deposit = { txHash: sent.hash, logIndex: sent.logIndex, owner: depositAddress, token: usdc };

    expect(await read(deposit)).toEqual({ kind: 'credited', amount: 7_000_000n, confirmations: 64 });
    expect(await read({ ...deposit, owner: depositAddress.toLowerCase() })).toEqual({
      kind: 'credited',
      amount: 7_000_000n,
      confirmations: 64,
    });
    expect(await read({ ...deposit, owner: randomAddress() })).toEqual({ kind: 'uncredited' });
    expect(await read({ ...deposit, token: usdt })).toEqual({ kind: 'uncredited' });
    expect(await read({ ...deposit, logIndex: sent.logIndex + 1 })).toEqual({ kind: 'uncredited' });
    expect(await read({ ...deposit, txHash: `0x${'12'.repeat(32)}` })).toEqual({ kind: 'unseen' });
  });
});
