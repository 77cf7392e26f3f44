// A worker's live xpubs against the live signer's published fingerprint (docs/operations.md#signer-fingerprints): the
// live signer publishes at start, as its own role; a worker given the public development xpubs while the live signer
// holds another seed refuses to start, and refuses every live EVM and Tron address; before any publication it starts
// and refuses live addresses retryably. Runs as the worker's and the signer's roles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../db/client';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { loadConfig } from '../../config/env';
import { DEVELOPMENT_ACCOUNT_XPUBS } from '../../domain/addresses/depositSeed';
import { accountXpubsFromSeed } from '../../domain/addresses/hdDerivation';
import { xpubFingerprint } from '../../domain/addresses/xpubFingerprint';
import { NO_DEPOSIT_FORWARDERS } from '../../domain/addresses/depositForwarder';
import type { SessionRecord } from '../../domain/wire/session';
import { LiveXpubsRefusedError, lookUpSessionDepositAddresses } from '../../activities/depositAddresses/sessionDepositAddresses';
import { publishLiveSignerFingerprint } from '../../signer/fingerprint';
import { signerDatabasePools, signerDepsFromConfig } from '../../signer/worker';
import type { SignerDeps } from '../../signer/activities';
import { checkLiveXpubsAtStart } from '../../worker/liveXpubCheck';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';

const LIVE_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

let db: TestDatabase;
let worker: Sql;
let liveSigner: SignerDeps;
let merchantId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  worker = createSql(db.urlAs('checkout_worker'), { max: 2 });
  merchantId = (await createTestMerchant(db.sql)).merchant.id;
  const env = { SIGNER_MODE: 'live', DEPOSIT_MNEMONIC_LIVE: LIVE_MNEMONIC, DATABASE_URL: db.urlAs('checkout_signer') };
  liveSigner = await signerDepsFromConfig(loadConfig(env, 'signer'));
});
afterAll(async () => {
  await Promise.all([worker?.end({ timeout: 5 }), ...signerDatabasePools(liveSigner).map((sql) => sql.end({ timeout: 5 }))]);
  await db?.drop();
});

const liveXpubs = () => accountXpubsFromSeed(liveSigner.depositSeeds.live!);

async function liveSession(): Promise<SessionRecord> {
  const record = { ...sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 }), mode: 'live' as const };
  await insertSessionRecord(db.sql, record, 'pending');
  return record;
}

const lookUp = (xpubs: typeof DEVELOPMENT_ACCOUNT_XPUBS, record: SessionRecord) =>
  lookUpSessionDepositAddresses(
    worker,
    { depositXpubs: { test: undefined, live: xpubs }, depositForwarders: NO_DEPOSIT_FORWARDERS, checkLiveSignerFingerprint: true },
    record,
  );

describe('live xpubs checked against the live signer', () => {
  it('before the live signer publishes: the worker starts, and a live address waits', async () => {
    await expect(checkLiveXpubsAtStart(worker, liveXpubs())).resolves.toMatchObject({ verdict: 'unpublished' });
    await expect(lookUp(liveXpubs(), await liveSession())).rejects.toThrow(LiveXpubsRefusedError);
    await expect(lookUp(liveXpubs(), await liveSession())).rejects.toThrow(/no live signer has published/);
  });

  it("the live signer publishes its seed's fingerprint; the development xpubs are refused at start and per address, its own accepted", async () => {
    const publication = await publishLiveSignerFingerprint(liveSigner);
    expect(publication).toEqual({ fingerprint: xpubFingerprint(liveXpubs()), previous: undefined });
    expect(await db.sql`select mode, xpub_fingerprint from signer_fingerprints`).toEqual([
      { mode: 'live', xpub_fingerprint: xpubFingerprint(liveXpubs()) },
    ]);

    await expect(checkLiveXpubsAtStart(worker, DEVELOPMENT_ACCOUNT_XPUBS)).rejects.toThrow(
      /invalid configuration: DEPOSIT_XPUB_EVM_LIVE \/ DEPOSIT_XPUB_TRON_LIVE .* are not the live signer's/,
    );
    await expect(lookUp(DEVELOPMENT_ACCOUNT_XPUBS, await liveSession())).rejects.toThrow(/are not the live signer's/);

    await expect(checkLiveXpubsAtStart(worker, liveXpubs())).resolves.toEqual({ verdict: 'matches' });
    await expect(lookUp(liveXpubs(), await liveSession())).resolves.toMatchObject({ reserved: true });
  });

  it('a test session is not held to the live fingerprint, nor a worker without live xpubs', async () => {
    const record = { ...sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 }) };
    await insertSessionRecord(db.sql, record, 'pending');
    await expect(
      lookUpSessionDepositAddresses(
        worker,
        {
          depositXpubs: { test: DEVELOPMENT_ACCOUNT_XPUBS, live: undefined },
          depositForwarders: NO_DEPOSIT_FORWARDERS,
          checkLiveSignerFingerprint: true,
        },
        record,
      ),
    ).resolves.toMatchObject({ reserved: true });
    await expect(checkLiveXpubsAtStart(worker, undefined)).resolves.toBeUndefined();
  });

  it("only the signer's role writes the fingerprint", async () => {
    await expect(worker`update signer_fingerprints set xpub_fingerprint = ${xpubFingerprint(DEVELOPMENT_ACCOUNT_XPUBS)}`).rejects.toThrow(
      /permission denied/,
    );
  });
});
