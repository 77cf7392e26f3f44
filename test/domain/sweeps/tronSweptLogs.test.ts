// The Swept events of a Tron sweepMany, decoded from TransactionInfo's `log` (domain/sweeps/tronSweptLogs.ts), golden-checked
// against the constructed gettransactioninfobyid answer in test/fixtures/tron (README there): two forwarders of the
// fixture factory, each a USDT Transfer then a Swept, numbered from the transaction's first log in its block.
import { describe, expect, it } from 'vitest';
import { tronForwarderAddress } from '../../../domain/addresses/depositForwarder';
import { depositSalt } from '../../../domain/addresses/depositSalt';
import { tronAddressFromEvmHex, tronAddressToEvmHex } from '../../../domain/addresses/tron';
import { sweptAmounts } from '../../../domain/sweeps/evmSweepPlan';
import { hdSweptAmount } from '../../../domain/sweeps/evmHdSweep';
import { tronSweptLogs, tronTransferLogs } from '../../../domain/sweeps/tronSweptLogs';
import { recorded } from '../../fixtures/tron';

const CONTRACTS = { factory: 'TBX9rNKH1h1h8L1sCqux5teKZBWhgSUwtJ', implementation: 'TXThssotDx2fcJ7QHdmBRFhpTMn1AmNx3c' };
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const { log } = recorded.http.infoSwept;

describe('Tron Swept logs', () => {
  it('decodes the recorded shape: factory, forwarders, token and amounts, numbered in the block', () => {
    const swept = tronSweptLogs(log, 7);
    expect(swept).toEqual([
      {
        emitter: '0x1102cea527e3cdffc9d4e729ad77afe7072d67c9',
        forwarder: '0xdd1d38fe336c97f97b602466c25920c1c7a29aaf',
        token: '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c',
        amount: 1_500_000n,
        logIndex: 8,
      },
      {
        emitter: '0x1102cea527e3cdffc9d4e729ad77afe7072d67c9',
        forwarder: '0x5abf980418386e901a14e7d5a9469f63623417e8',
        token: '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c',
        amount: 2_250_000n,
        logIndex: 10,
      },
    ]);
    expect(swept.map((s) => tronAddressFromEvmHex(s.forwarder))).toEqual([
      'TW8MLsqiSAHEVTLoi4LkM5HqQFYJkk5g4x',
      'TJF3LVg8Lf8ygz1iotBknQwD1gS8ckMaf9',
    ]);
    // The forwarders are the TVM CREATE2 addresses of the sessions' salts, as deposit addresses were given out.
    expect(swept.map((s) => tronAddressFromEvmHex(s.forwarder))).toEqual(
      ['ses_01JTRONSWEEPFIXTURE00000001', 'ses_01JTRONSWEEPFIXTURE00000002'].map((session) =>
        tronForwarderAddress(CONTRACTS, depositSalt(session)),
      ),
    );
    expect(tronAddressFromEvmHex(swept[0]!.emitter)).toBe(CONTRACTS.factory);
  });

  it('counts what the factory logged for the token only, whatever else the transaction logged', () => {
    const amounts = sweptAmounts(tronSweptLogs(log, 0), tronAddressToEvmHex(CONTRACTS.factory), tronAddressToEvmHex(USDT));
    expect(amounts).toEqual({
      perAddress: new Map([
        ['0xdd1d38fe336c97f97b602466c25920c1c7a29aaf', 1_500_000n],
        ['0x5abf980418386e901a14e7d5a9469f63623417e8', 2_250_000n],
      ]),
      total: 3_750_000n,
      lastLogIndex: 3,
    });
    expect(sweptAmounts(tronSweptLogs(log, 0), tronAddressToEvmHex(USDT), tronAddressToEvmHex(USDT)).total).toBe(0n);
  });

  it('takes an emitter with the 41 prefix, and skips a log of the same signature indexed otherwise', () => {
    const [transfer, swept] = log as [(typeof log)[number], (typeof log)[number]];
    const prefixed = { ...swept, address: `41${swept.address}` };
    const unindexed = { ...swept, topics: swept.topics.slice(0, 3) };
    expect(tronSweptLogs([transfer, unindexed, prefixed], 0)).toEqual([expect.objectContaining({ logIndex: 2, amount: 1_500_000n })]);
  });

  it("decodes the token's Transfer logs of the same answer, numbered alike, which hdSweptAmount counts from one address to one payee", () => {
    const transfers = tronTransferLogs(log, 7);
    expect(transfers).toEqual([
      {
        emitter: '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c',
        from: '0xdd1d38fe336c97f97b602466c25920c1c7a29aaf',
        to: expect.any(String),
        value: 1_500_000n,
        logIndex: 7,
      },
      {
        emitter: '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c',
        from: '0x5abf980418386e901a14e7d5a9469f63623417e8',
        to: transfers[0]!.to,
        value: 2_250_000n,
        logIndex: 9,
      },
    ]);
    const from = tronAddressFromEvmHex('0xdd1d38fe336c97f97b602466c25920c1c7a29aaf');
    const swept = { token: tronAddressToEvmHex(USDT), from: tronAddressToEvmHex(from), to: transfers[0]!.to };
    expect(hdSweptAmount(transfers, swept)).toEqual({ moved: 1_500_000n, lastLogIndex: 7 });
    // A Swept log is no Transfer, and a Transfer no Swept.
    expect(
      tronTransferLogs(
        log.filter((_, i) => i % 2 === 1),
        0,
      ),
    ).toEqual([]);
    expect(
      tronSweptLogs(
        log.filter((_, i) => i % 2 === 0),
        0,
      ),
    ).toEqual([]);
  });
});
