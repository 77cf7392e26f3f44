// A sweep batch of SWEEP_BATCH_LIMIT deposit accounts fits Solana's 1,232-byte transaction; one more does not.
import { generateKeyPairSigner, getBase64EncodedWireTransaction, type Blockhash } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { associatedUsdcAccount } from '../../../domain/addresses/solanaTokenAccount';
import { signSweepTransaction } from '../../../signer/sweeps/sweepTransaction';
import { SWEEP_BATCH_LIMIT } from '../../../domain/sweeps/solanaSweepBatches';

/** The packet size a transaction must fit (solana-sdk PACKET_DATA_SIZE: 1280 bytes of IPv6 MTU less 48 of headers). */
const PACKET_DATA_SIZE = 1232;

async function wireSize(accounts: number): Promise<number> {
  const [treasury, mint] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
  const swept = await Promise.all(
    Array.from({ length: accounts }, async () => {
      const owner = await generateKeyPairSigner();
      return { owner, tokenAccount: await associatedUsdcAccount(owner.address, mint.address), amount: 2n ** 64n - 1n, close: true };
    }),
  );
  const transaction = await signSweepTransaction(
    { treasury, mint: mint.address, accounts: swept },
    { blockhash: 'EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k' as Blockhash, lastValidBlockHeight: 100n },
  );
  return Buffer.from(getBase64EncodedWireTransaction(transaction), 'base64').length;
}

describe('sweep transaction size', () => {
  it(`${SWEEP_BATCH_LIMIT} accounts fit a packet and ${SWEEP_BATCH_LIMIT + 1} do not`, async () => {
    expect(await wireSize(SWEEP_BATCH_LIMIT)).toBeLessThanOrEqual(PACKET_DATA_SIZE);
    expect(await wireSize(SWEEP_BATCH_LIMIT + 1)).toBeGreaterThan(PACKET_DATA_SIZE);
  });
});
