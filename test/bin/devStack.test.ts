// The stack `npm start` and `npm run demo` run (bin/devStack.ts), started in process on its own Temporal dev server:
// its local EVM chain carries the deposit contracts at the addresses computed offline, with the local relayer as
// sweeper and the signer holding its key, the TokenMessengerV2 stand-in, and the loopback attestation stand-in
// answering as Iris does.
import { pino } from 'pino';
import { isAddressEqual, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAttestationClient } from '../../activities/cctp/attestationClient';
import { loadConfig } from '../../config/env';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import { SOLANA_CCTP_DOMAIN } from '../../domain/cctp/domains';
import { depositContractAddresses } from '../../domain/depositContracts';
import { startDevStack, type DevStack } from '../../bin/devStack';
import { devDepositContractParams } from '../../toolchain/localChain/devDepositContracts';
import { freePort } from '../../toolchain/ports';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;
let stack: DevStack;

beforeAll(async () => {
  db = await createTestDatabase();
  const config = loadConfig(
    {
      HOST: '127.0.0.1',
      PORT: '0',
      INTERNAL_PORT: '0',
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
      LOCAL_CHAIN_PORT: '0',
      LOCAL_SOLANA_PORT: '0',
      LOG_LEVEL: 'silent',
    },
    'dev',
  );
  stack = await startDevStack({ config, chainEnv: {}, startTemporal: true, persistent: false, keyLabel: 'devStack test', progress: () => undefined, logger: pino({ level: 'silent' }) });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await db?.drop();
}, 60_000);

describe('the dev stack', () => {
  it('deploys the deposit contracts at their offline addresses, with the relayer whose key the signer holds as sweeper', async () => {
    const chain = stack.devChain!;
    const { params, relayer } = devDepositContractParams();
    const offline = depositContractAddresses(params);
    expect(chain.depositContracts).toMatchObject(offline);
    const client = chain.local.publicClient;
    for (const address of [offline.factory, offline.forwarder]) expect((await client.getCode({ address }))?.length ?? 0).toBeGreaterThan(2);
    const collector = await client.readContract({ address: offline.factory, abi: depositFactory.abi, functionName: 'collector' });
    expect(isAddressEqual(collector, params.collector)).toBe(true);
    expect(await client.readContract({ address: offline.factory, abi: depositFactory.abi, functionName: 'isSweeper', args: [relayer.address] })).toBe(true);
    expect(privateKeyToAccount(stack.signerEnv.EVM_RELAYER_KEY_TEST as Address).address).toBe(relayer.address);
    expect(await client.getBalance({ address: relayer.address })).toBeGreaterThan(0n);
  });

  it('deploys the TokenMessengerV2 stand-in and runs the attestation stand-in, answering as Iris does', async () => {
    const chain = stack.devChain!;
    for (const address of [chain.cctp.tokenMessenger, chain.cctp.messageTransmitter]) expect((await chain.local.publicClient.getCode({ address }))?.length ?? 0).toBeGreaterThan(2);
    expect(chain.cctp.localDomain).toBe(6);
    const iris = createAttestationClient({ baseUrl: stack.attestationUrl!, timeoutMs: 5_000 });
    expect((await iris.fees(chain.cctp.localDomain, SOLANA_CCTP_DOMAIN)).length).toBeGreaterThan(0);
    expect(await iris.messages(chain.cctp.localDomain, `0x${'ab'.repeat(32)}`)).toEqual({ state: 'not-seen' });
  });
});
