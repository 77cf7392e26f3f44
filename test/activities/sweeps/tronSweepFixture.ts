// What the Tron sweep tests share: deposits as the service records them on Tron, against the loopback stand-in of
// java-tron's HTTP API (test/support/tron/tronWalletNode.ts): a session whose Tron deposit address is the factory's
// forwarder for its salt, or an HD address derived from a seed at the session's index (sessions from before the
// forwarders), the stand-in's balance of the token there (its named stand-in behaviour), the indexer's confirmed
// deposit credited to it and posted to the ledger as the settlement posts it.
import { randomBytes, randomInt } from 'node:crypto';
import type { Sql } from '../../../db/client';
import { postLedger } from '../../../db/repositories/ledger';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { tronForwarderAddress, type TronForwarderContracts } from '../../../domain/addresses/depositForwarder';
import { depositSalt } from '../../../domain/addresses/depositSalt';
import { tronAddressFromEvmHex } from '../../../domain/addresses/tron';
import { deriveTronAddress } from '../../../activities/depositAddresses/derive';
import type { TokenSymbol } from '../../../domain/chains';
import { crossChainDepositReceived } from '../../../domain/ledger';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import type { TronWalletNode } from '../../support/tron/tronWalletNode';

/** A fresh base58 `T…` address nobody holds a key for. */
export const tronAddress = () => tronAddressFromEvmHex(`0x${randomBytes(20).toString('hex')}`);

export interface TronSweepFixture {
  /** The owner's pool: sessions, deposits and postings are written as the API and indexer would. */
  sql: Sql;
  node: TronWalletNode;
  contracts: TronForwarderContracts;
  token: { symbol: TokenSymbol; address: string };
}

/** A test-mode session with a Tron forwarder deposit address and `amount` of the token there, confirmed, credited and posted; its address. */
export async function tronForwarderDeposit(f: TronSweepFixture, amount: bigint): Promise<string> {
  return tronDeposit(f, amount, (sessionId) => ({ index: randomInt(1_000_000, 2 ** 31 - 1), address: tronForwarderAddress(f.contracts, depositSalt(sessionId)), forwarder: true }));
}

/** A test-mode session whose Tron deposit address is the HD address of `seed` at `index`, with `amount` of the token there, confirmed, credited and posted; its address. */
export async function tronHdDeposit(f: TronSweepFixture, seed: Uint8Array, index: number, amount: bigint): Promise<string> {
  return tronDeposit(f, amount, () => ({ index, address: deriveTronAddress({ seed }, index), forwarder: false }));
}

async function tronDeposit(f: TronSweepFixture, amount: bigint, addressOf: (sessionId: string) => { index: number; address: string; forwarder: boolean }): Promise<string> {
  const { merchant } = await createTestMerchant(f.sql);
  const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
  await insertSessionRecord(f.sql, record, 'completed');
  const { index, address, forwarder } = addressOf(record.sessionId);
  await f.sql`insert into deposit_addresses (session_id, derivation_index, evm_address, tron_address, solana_address, mode, tron_scheme, tron_factory)
            values (${record.sessionId}, ${index}, ${'0x' + randomBytes(20).toString('hex')}, ${address}, ${'S' + randomBytes(16).toString('hex')}, 'test',
                    ${forwarder ? 'forwarder' : 'hd'}, ${forwarder ? f.contracts.factory : null})`;
  f.node.setBalance(f.token.address, address, f.node.balanceOf(f.token.address, address) + amount);
  const txHash = randomBytes(32).toString('hex');
  await f.sql`insert into deposits (chain, tx_hash, log_index, network, session_id, token, amount_base_units, from_address, to_address, block_number, block_hash, stage, confirmations, credited)
            values ('tron', ${txHash}, 0, 'testnet', ${record.sessionId}, ${f.token.symbol}, ${amount.toString()}, ${tronAddress()}, ${address},
                    ${f.node.head().toString()}, ${randomBytes(32).toString('hex')}, 'confirmed', 19, true)`;
  await postLedger(f.sql, crossChainDepositReceived({ chain: 'tron', token: f.token.symbol, txHash, logIndex: 0, merchantId: merchant.id, mode: 'test', received: amount, payable: amount }));
  return address;
}
