// Above the re-read threshold the signer asks Tron's HTTP API itself what a deposit transferred: the solidified
// TransactionInfo's receipt and the token's Transfer log at the deposit's log index, to the deposit address, and its
// depth below the solidified head, here from the stand-in node. A transaction not yet solidified is unseen (waited
// on), one that reverted is failed, one that credits nothing of the token to the address at that index is uncredited.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTronDepositReader } from '../../../signer/backing/tronDepositReader';
import { tronAddressFromEvmHex } from '../../../domain/addresses/tron';
import type { DepositReader } from '../../../domain/settlement/depositBacking';
import { startTronWalletNode, type TronWalletNode } from '../../support/tron/tronWalletNode';

let node: TronWalletNode;
let read: DepositReader;

beforeAll(async () => {
  node = await startTronWalletNode({ solidifiedLag: 2 });
  read = createTronDepositReader({ fullNodeUrl: node.url });
});
afterAll(async () => {
  await node?.close();
});

const randomTronAddress = () => tronAddressFromEvmHex(`0x${randomBytes(20).toString('hex')}`);

describe('Tron deposit re-reader', () => {
  it('reads the Transfer to the deposit address at its log index once solidified, and its depth below the solidified head', async () => {
    const [usdt, other, customer, depositAddress] = [randomTronAddress(), randomTronAddress(), randomTronAddress(), randomTronAddress()];
    const txHash = node.deposit(usdt, customer, depositAddress, 7_000_000n);
    const deposit = { txHash, logIndex: 0, owner: depositAddress, token: usdt };

    expect(await read(deposit)).toEqual({ kind: 'unseen' });
    node.mineEmpty(2);
    expect(await read(deposit)).toEqual({ kind: 'credited', amount: 7_000_000n, confirmations: 1 });
    node.mineEmpty(18);
    expect(await read(deposit)).toEqual({ kind: 'credited', amount: 7_000_000n, confirmations: 19 });

    expect(await read({ ...deposit, owner: randomTronAddress() })).toEqual({ kind: 'uncredited' });
    expect(await read({ ...deposit, token: other })).toEqual({ kind: 'uncredited' });
    expect(await read({ ...deposit, logIndex: 1 })).toEqual({ kind: 'uncredited' });
    expect(await read({ ...deposit, txHash: '12'.repeat(32) })).toEqual({ kind: 'unseen' });
  });

  it('reads a transaction that reverted as failed', async () => {
    const [usdt, customer, depositAddress] = [randomTronAddress(), randomTronAddress(), randomTronAddress()];
    const txHash = node.deposit(usdt, customer, depositAddress, 7_000_000n, 'REVERT');
    node.mineEmpty(2);
    expect(await read({ txHash, logIndex: 0, owner: depositAddress, token: usdt })).toEqual({ kind: 'failed' });
  });
});
