import { encodeAbiParameters, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { tronAddressFromEvmHex, tronAddressToEvmHex } from '../../../domain/addresses/tron';
import {
  tronForwarderSweepDifference,
  tronHdTransferDifference,
  tronRebalanceDifference,
  tronTopUpDifference,
} from '../../../domain/chainWrites/tronIntentCall';

const tron = (byte: string) => tronAddressFromEvmHex(`0x${byte.repeat(20)}`);
const TOKEN = tron('11');
const COLLECTOR = tron('22');
const ATTACKER = tron('33');
const FACTORY = tron('44');
const HD = tron('55');
const SALTS = [`0x${'aa'.repeat(32)}`, `0x${'bb'.repeat(32)}`];
const FEE_LIMIT = 50_000_000n;

const sweepMany = (salts: string[], token = TOKEN) =>
  encodeAbiParameters([{ type: 'bytes32[]' }, { type: 'address' }], [salts as Hex[], tronAddressToEvmHex(token)]).slice(2);
const transfer = (to: string, amount: bigint) =>
  encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [tronAddressToEvmHex(to), amount]).slice(2);
const call = (contract: string, functionSelector: string, parameter: string, overrides = {}) => ({
  contract,
  functionSelector,
  parameter,
  feeLimit: FEE_LIMIT.toString(),
  callValue: '0',
  ...overrides,
});

describe('tronForwarderSweepDifference', () => {
  const sweep = { factory: FACTORY, tokenAddress: TOKEN, salts: SALTS, maxFeeLimitSun: FEE_LIMIT };
  const SWEEP_MANY = 'sweepMany(bytes32[],address)';

  it("accepts sweepMany of the sweep's salts, in any order, and its token on its factory", () => {
    expect(tronForwarderSweepDifference(call(FACTORY, SWEEP_MANY, sweepMany([...SALTS].reverse())), sweep)).toBeUndefined();
  });

  it("refuses TRX to the attacker, another contract, other salts or token, TRX sent along, or a fee limit above the signer's", () => {
    expect(tronForwarderSweepDifference({ kind: 'transfer', to: ATTACKER, amount: '1000000' }, sweep)).toBe(
      `it pays ${ATTACKER} TRX, not a call of ${FACTORY}`,
    );
    expect(tronForwarderSweepDifference(call(TOKEN, 'transfer(address,uint256)', transfer(ATTACKER, 1n)), sweep)).toBe(
      `it calls ${TOKEN}, not ${FACTORY}; it calls transfer(address,uint256), not ${SWEEP_MANY}; its parameters are not sweepMany(bytes32[],address)`,
    );
    expect(tronForwarderSweepDifference(call(FACTORY, SWEEP_MANY, sweepMany([SALTS[0]!], ATTACKER)), sweep)).toBe(
      `it sweeps other salts than the sweep's addresses'; it sweeps another token than the sweep's ${TOKEN}`,
    );
    expect(tronForwarderSweepDifference(call(FACTORY, SWEEP_MANY, sweepMany(SALTS), { callValue: '5', feeLimit: '50000001' }), sweep)).toBe(
      `it sends 5 sun, not 0; its fee limit 50000001 sun is above the signer's ${FEE_LIMIT}`,
    );
  });
});

describe('tronHdTransferDifference', () => {
  const sweep = { tokenAddress: TOKEN, collector: COLLECTOR, plannedBaseUnits: 2_500_000n, maxFeeLimitSun: FEE_LIMIT };
  const TRANSFER = 'transfer(address,uint256)';

  it('accepts the planned amount to the collector, and refuses another payee or amount', () => {
    expect(tronHdTransferDifference(call(TOKEN, TRANSFER, transfer(COLLECTOR, 2_500_000n)), sweep)).toBeUndefined();
    expect(tronHdTransferDifference(call(TOKEN, TRANSFER, transfer(ATTACKER, 2_500_001n)), sweep)).toBe(
      `it transfers to another address than the sweep's collector ${COLLECTOR}; it transfers 2500001, not the planned 2500000`,
    );
    expect(tronHdTransferDifference(null, sweep)).toBe('it holds no call');
  });
});

describe('tronRebalanceDifference', () => {
  const withdrawal = { collector: COLLECTOR, tokenAddress: TOKEN, amount: 5_000_000n, maxFeeLimitSun: FEE_LIMIT };
  const REBALANCE = 'rebalance(address,uint256)';

  it("accepts the collector's rebalance of the row's token and amount, and refuses a token transfer, another token or amount", () => {
    expect(tronRebalanceDifference(call(COLLECTOR, REBALANCE, transfer(TOKEN, 5_000_000n)), withdrawal)).toBeUndefined();
    expect(tronRebalanceDifference(call(TOKEN, 'transfer(address,uint256)', transfer(ATTACKER, 5_000_000n)), withdrawal)).toBe(
      `it calls ${TOKEN}, not ${COLLECTOR}; it calls transfer(address,uint256), not ${REBALANCE}; it rebalances another token than the withdrawal's ${TOKEN}`,
    );
    expect(tronRebalanceDifference(call(COLLECTOR, REBALANCE, transfer(ATTACKER, 5_000_001n)), withdrawal)).toBe(
      `it rebalances another token than the withdrawal's ${TOKEN}; it rebalances 5000001, not the withdrawal's 5000000`,
    );
  });
});

describe('tronTopUpDifference', () => {
  it('accepts TRX to the swept address alone', () => {
    expect(tronTopUpDifference({ kind: 'transfer', to: HD, amount: '30000000' }, HD)).toBeUndefined();
    expect(tronTopUpDifference({ kind: 'transfer', to: ATTACKER, amount: '30000000' }, HD)).toBe(
      `it pays ${ATTACKER}, not the swept address ${HD}`,
    );
    expect(tronTopUpDifference(call(TOKEN, 'transfer(address,uint256)', transfer(ATTACKER, 1n)), HD)).toBe(
      `it calls ${TOKEN}; a top-up pays TRX only`,
    );
  });
});
