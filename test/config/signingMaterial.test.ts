// Signing material belongs to the signer alone. Every other process refuses to start when given
// any of it, naming the variable and never echoing its value; the signer accepts it, checked for shape. The main
// worker is given account xpubs instead (public material), validated once at start.
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base58, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import { accountXpubsFromSeed } from '../../domain/addresses/hdDerivation';
import { DEVELOPMENT_ACCOUNT_XPUBS } from '../../domain/addresses/depositSeed';
import { ConfigError, depositXpubVariables, loadConfig, type ProcessName } from '../../config/env';
import { SIGNING_VARIABLES } from '../../config/signingMaterial';
import { loadChainsConfig } from '../../config/chains';
import { createPayTreasuryPayout } from '../../signer/payouts/treasuryPayouts';
import { signerDepsFromConfig, treasuryAddressVariables } from '../../signer/worker';

const TEST_MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const LIVE_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

function solanaKeypair(): string {
  const secret = ed25519.utils.randomSecretKey();
  return base58.encode(new Uint8Array([...secret, ...ed25519.getPublicKey(secret)]));
}
const secp256k1Key = () => hex.encode(secp256k1.utils.randomSecretKey());

/** A valid value for each signing variable; test and live differ. */
const VALID: Record<string, string> = {
  DEPOSIT_MNEMONIC_TEST: TEST_MNEMONIC,
  DEPOSIT_MNEMONIC_LIVE: LIVE_MNEMONIC,
  SOLANA_TREASURY_KEY_TEST: solanaKeypair(),
  SOLANA_TREASURY_KEY_LIVE: solanaKeypair(),
  EVM_RELAYER_KEY_TEST: `0x${secp256k1Key()}`,
  EVM_RELAYER_KEY_LIVE: `0x${secp256k1Key()}`,
  TRON_RELAYER_KEY_TEST: secp256k1Key(),
  TRON_RELAYER_KEY_LIVE: secp256k1Key(),
};

function refusal(env: NodeJS.ProcessEnv, processName: ProcessName): string {
  try {
    loadConfig(env, processName);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`expected the ${processName} to refuse ${Object.keys(env).join(', ')}`);
}

describe('signing material', () => {
  it('reserves the deposit seeds, the Solana treasury keys and the EVM and Tron relayer keys', () => {
    expect([...SIGNING_VARIABLES].sort()).toEqual(['DEPOSIT_MNEMONIC', ...Object.keys(VALID)].sort());
  });

  it.each(['api', 'worker', 'webhookWorker', 'indexer', 'admin', 'migrate'] as const)(
    'the %s refuses every signing variable, naming it, never echoing it',
    (processName) => {
      for (const variable of SIGNING_VARIABLES) {
        const value = VALID[variable] ?? LIVE_MNEMONIC;
        const message = refusal({ [variable]: value }, processName);
        expect(message).toContain(
          `${variable}: is signing material and belongs to the signer only (npm run signer); the ${processName} must not be given it`,
        );
        expect(message).not.toContain(value);
      }
      // An empty variable holds nothing: Compose's `${VAR:-}` passes one.
      expect(() => loadConfig({ DEPOSIT_MNEMONIC_TEST: '' }, processName)).not.toThrow();
    },
  );

  it("npm start accepts all of it: it runs both modes' signers in one process on purpose", () => {
    const config = loadConfig(VALID, 'dev');
    expect(config.depositMnemonics).toEqual({ test: TEST_MNEMONIC, live: LIVE_MNEMONIC });
    expect(config.solanaTreasuryKeys).toEqual({ test: VALID.SOLANA_TREASURY_KEY_TEST, live: VALID.SOLANA_TREASURY_KEY_LIVE });
    expect(config.signerMode).toBeUndefined();
  });

  it.each([
    ['test', 'LIVE'],
    ['live', 'TEST'],
  ] as const)("a SIGNER_MODE=%s signer accepts its mode's material and refuses every _%s variable, naming it", (mode, other) => {
    const own = Object.fromEntries(Object.entries(VALID).filter(([name]) => !name.endsWith(`_${other}`)));
    const config = loadConfig({ ...own, SIGNER_MODE: mode }, 'signer');
    expect(config.signerMode).toBe(mode);
    for (const variable of Object.keys(VALID).filter((name) => name.endsWith(`_${other}`))) {
      const message = refusal({ ...own, SIGNER_MODE: mode, [variable]: VALID[variable] }, 'signer');
      expect(message).toContain(`${variable}: belongs to the ${other.toLowerCase()} signer: this one runs SIGNER_MODE=${mode}`);
      expect(message).not.toContain(VALID[variable]);
    }
  });

  it('the signer refuses to start without SIGNER_MODE, or with another value', () => {
    expect(refusal({}, 'signer')).toContain('SIGNER_MODE: is required by the signer: test or live');
    expect(refusal({ SIGNER_MODE: 'both' }, 'signer')).toContain('SIGNER_MODE');
    expect(loadConfig({ SIGNER_MODE: 'live' }, 'worker').signerMode).toBeUndefined();
  });

  it('a live signer holds no test seed, not even the public development one, and a test signer no live one', async () => {
    const live = await signerDepsFromConfig(loadConfig({ SIGNER_MODE: 'live', DEPOSIT_MNEMONIC_LIVE: LIVE_MNEMONIC }, 'signer'));
    expect(live.depositSeeds.test).toBeUndefined();
    expect(live.depositSeeds.live).toEqual(mnemonicToSeedSync(LIVE_MNEMONIC));
    const test = await signerDepsFromConfig(loadConfig({ SIGNER_MODE: 'test' }, 'signer'));
    expect(test.depositSeeds.live).toBeUndefined();
    expect(test.depositSeeds.test).toBeDefined();
  });

  it('payouts carry their memo unless SOLANA_PAYOUT_MEMO=false says the chain cannot run it', () => {
    expect(loadConfig({ SIGNER_MODE: 'test' }, 'signer').solanaPayoutMemo).toBe(true);
    expect(loadConfig({ SIGNER_MODE: 'test', SOLANA_PAYOUT_MEMO: 'false' }, 'signer').solanaPayoutMemo).toBe(false);
    expect(refusal({ SIGNER_MODE: 'test', SOLANA_PAYOUT_MEMO: 'no' }, 'signer')).toContain('SOLANA_PAYOUT_MEMO');
  });

  it("the signer builds a treasury per mode given a key: its address, its network's RPC and USDC mint, the memo setting", async () => {
    const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
    const env = {
      SOLANA_TREASURY_KEY_TEST: VALID.SOLANA_TREASURY_KEY_TEST,
      SIGNER_MODE: 'test',
      SOLANA_PAYOUT_MEMO: 'false',
      DATABASE_URL: 'postgres://checkout_worker@127.0.0.1:1/none',
      RPC_URLS_SOLANA_TESTNET: 'http://127.0.0.1:8899',
      TOKEN_USDC_SOLANA_TESTNET: `${MINT}:6`,
    };
    const deps = await signerDepsFromConfig(loadConfig(env, 'signer'), loadChainsConfig(env));
    const treasury = deps.treasuries?.test;
    expect(Object.keys(deps.treasuries ?? {})).toEqual(['test']);
    expect(treasury?.treasury.address).toBe(base58.encode(base58.decode(VALID.SOLANA_TREASURY_KEY_TEST!).subarray(32)));
    expect(treasury).toMatchObject({ usdcMint: MINT, memo: false });
    // The same treasury pays the mode's refunds, with the refund fee and receivable limit as configured.
    expect(Object.keys(deps.refundPayers ?? {})).toEqual(['test']);
    expect(deps.refundPayers?.test).toMatchObject({
      treasury: treasury?.treasury,
      usdcMint: MINT,
      memo: false,
      networkFeeUsdMicros: 10_000n,
      merchantReceivableLimit: 'pending',
    });
    const limited = await signerDepsFromConfig(
      loadConfig({ ...env, REFUND_NETWORK_FEE_USD: '0.5', REFUND_MERCHANT_RECEIVABLE_LIMIT_USDC: '250' }, 'signer'),
      loadChainsConfig(env),
    );
    expect(limited.refundPayers?.test).toMatchObject({ networkFeeUsdMicros: 500_000n, merchantReceivableLimit: 250_000_000n });
    await limited.refundPayers?.test?.sql.end();
    await treasury?.sql.end();

    await expect(signerDepsFromConfig(loadConfig({ ...env, DATABASE_URL: '' }, 'signer'), loadChainsConfig(env))).rejects.toThrow(
      /DATABASE_URL: is required by the signer/,
    );
    await expect(signerDepsFromConfig(loadConfig(env, 'signer'), loadChainsConfig({}))).rejects.toThrow(
      /SOLANA_TREASURY_KEY_TEST: needs RPC_URLS_SOLANA_TESTNET/,
    );
    expect((await signerDepsFromConfig(loadConfig({ SIGNER_MODE: 'test' }, 'signer'))).treasuries).toBeUndefined();
  });

  it("a signer holding a live treasury key refuses to start unless each live route's chain has a provider besides the indexer's", async () => {
    const env = {
      SIGNER_MODE: 'live',
      SOLANA_TREASURY_KEY_LIVE: VALID.SOLANA_TREASURY_KEY_LIVE,
      DATABASE_URL: 'postgres://checkout_worker@127.0.0.1:1/none',
      RPC_URLS_SOLANA_MAINNET: 'https://rpc-a.example',
      SETTLEMENT_LIVE_ROUTES: 'USDC:solana,USDT:tron',
    };
    const start = (more: Record<string, string>) =>
      signerDepsFromConfig(loadConfig({ ...env, ...more }, 'signer'), loadChainsConfig({ ...env, ...more }));
    await expect(start({})).rejects.toThrow(
      /^invalid configuration: RPC_URLS_SOLANA_MAINNET: needs a second, distinct URL .*; TRON_HTTP_API_URL_MAINNET: is required by SOLANA_TREASURY_KEY_LIVE/,
    );
    await expect(start({ RPC_URLS_SOLANA_MAINNET: 'https://rpc-a.example,https://rpc-a.example/' })).rejects.toBeInstanceOf(ConfigError);
    const deps = await start({
      RPC_URLS_SOLANA_MAINNET: 'https://rpc-a.example,https://rpc-b.example',
      TRON_HTTP_API_URL_MAINNET: 'https://tron.example',
    });
    expect(Object.keys(deps.treasuries ?? {})).toEqual(['live']);
    await deps.treasuries?.live?.sql.end();
  });

  it("the signer prints its treasury addresses for the watchers, and refuses a published address that is not its key's", async () => {
    const env = {
      SIGNER_MODE: 'test',
      SOLANA_TREASURY_KEY_TEST: VALID.SOLANA_TREASURY_KEY_TEST,
      DATABASE_URL: 'postgres://checkout_worker@127.0.0.1:1/none',
      RPC_URLS_SOLANA_TESTNET: 'http://127.0.0.1:8899',
      TOKEN_USDC_SOLANA_TESTNET: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v:6',
    };
    const address = base58.encode(base58.decode(VALID.SOLANA_TREASURY_KEY_TEST!).subarray(32));
    const deps = await signerDepsFromConfig(loadConfig({ ...env, SOLANA_TREASURY_ADDRESS_TEST: address }, 'signer'), loadChainsConfig(env));
    expect(treasuryAddressVariables(deps)).toEqual([
      `SOLANA_TREASURY_ADDRESS_TEST=${address}`,
      '# no SOLANA_TREASURY_KEY_LIVE: no live treasury',
    ]);
    await deps.treasuries?.test?.sql.end();
    const other = base58.encode(base58.decode(VALID.SOLANA_TREASURY_KEY_LIVE!).subarray(32));
    await expect(
      signerDepsFromConfig(loadConfig({ ...env, SOLANA_TREASURY_ADDRESS_TEST: other }, 'signer'), loadChainsConfig(env)),
    ).rejects.toThrow(`SOLANA_TREASURY_ADDRESS_TEST: is not the address of SOLANA_TREASURY_KEY_TEST (${address})`);
    expect(() => loadConfig({ SOLANA_TREASURY_ADDRESS_LIVE: '0xnot-solana' }, 'worker')).toThrow(
      /SOLANA_TREASURY_ADDRESS_LIVE: is not a Solana address/,
    );
    expect(loadConfig({ SOLANA_TREASURY_ADDRESS_LIVE: other }, 'worker')).toMatchObject({
      solanaTreasuryAddresses: { live: other, test: undefined },
      reconciliationIntervalMinutes: 15,
    });
  });

  it('a mode without a treasury answers no_treasury and writes nothing', async () => {
    await expect(
      createPayTreasuryPayout({})({ paymentId: 'pay_x', merchantId: 'm', mode: 'live', amountUsdcBaseUnits: '1' }),
    ).resolves.toEqual({ status: 'no_treasury' });
  });

  it('npm start checks each key for shape and refuses a test key equal to the live one, without echoing either', () => {
    const keypair = base58.decode(VALID.SOLANA_TREASURY_KEY_LIVE!);
    const mismatched = base58.encode(
      new Uint8Array([...keypair.subarray(0, 32), ...base58.decode(VALID.SOLANA_TREASURY_KEY_TEST!).subarray(32)]),
    );
    const cases: Array<[string, string, string]> = [
      ['SOLANA_TREASURY_KEY_LIVE', base58.encode(keypair.subarray(0, 32)), 'is not a Solana keypair: expected 64 bytes, got 32'],
      ['SOLANA_TREASURY_KEY_LIVE', mismatched, 'is not a Solana keypair: its public half does not match its secret half'],
      ['SOLANA_TREASURY_KEY_TEST', '0OIl', 'is not base58'],
      ['EVM_RELAYER_KEY_LIVE', secp256k1Key(), 'is not a secp256k1 private key: expected 0x followed by 64 hex digits'],
      ['EVM_RELAYER_KEY_LIVE', `0x${'0'.repeat(64)}`, 'is not a valid secp256k1 private key'],
      ['TRON_RELAYER_KEY_TEST', `0x${secp256k1Key()}`, 'is not a secp256k1 private key: expected 64 hex digits'],
      ['EVM_RELAYER_KEY_TEST', VALID.EVM_RELAYER_KEY_LIVE!, 'must differ from EVM_RELAYER_KEY_LIVE'],
      [
        'DEPOSIT_MNEMONIC_TEST',
        ` ${LIVE_MNEMONIC.replace(/ /g, '  ')} `,
        'must differ from DEPOSIT_MNEMONIC_LIVE: test keys must never derive from live key material',
      ],
    ];
    for (const [variable, value, expected] of cases) {
      const message = refusal({ ...VALID, [variable]: value }, 'dev');
      expect(message).toContain(`${variable}: ${expected}`);
      expect(message).not.toContain(value.trim());
    }
    expect(refusal({ SIGNER_MODE: 'live', DEPOSIT_MNEMONIC: LIVE_MNEMONIC }, 'signer')).toMatch(
      /DEPOSIT_MNEMONIC: is split in two: set DEPOSIT_MNEMONIC_LIVE/,
    );
  });
});

describe('deposit xpubs', () => {
  const live = accountXpubsFromSeed(mnemonicToSeedSync(LIVE_MNEMONIC));

  it('gives the worker the development xpubs for test mode by default and none for live', () => {
    expect(loadConfig({}, 'worker').depositXpubs).toEqual({ test: DEVELOPMENT_ACCOUNT_XPUBS, live: undefined });
    expect(loadConfig({ DEPOSIT_XPUB_EVM_LIVE: live.evm, DEPOSIT_XPUB_TRON_LIVE: live.tron }, 'worker').depositXpubs.live).toEqual(live);
  });

  it('refuses half a pair, a private key, another level, and live xpubs equal to the test ones', () => {
    const seed = mnemonicToSeedSync(LIVE_MNEMONIC);
    const accountPrivate = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0").privateExtendedKey;
    const cases: Array<[NodeJS.ProcessEnv, string]> = [
      [{ DEPOSIT_XPUB_EVM_LIVE: live.evm }, 'DEPOSIT_XPUB_TRON_LIVE: is needed with DEPOSIT_XPUB_EVM_LIVE'],
      [
        { DEPOSIT_XPUB_EVM_LIVE: accountPrivate, DEPOSIT_XPUB_TRON_LIVE: live.tron },
        'DEPOSIT_XPUB_EVM_LIVE: expected an extended public key, got a private one',
      ],
      [
        { DEPOSIT_XPUB_EVM_LIVE: HDKey.fromMasterSeed(seed).publicExtendedKey, DEPOSIT_XPUB_TRON_LIVE: live.tron },
        'DEPOSIT_XPUB_EVM_LIVE: expected an account-level xpub (depth 4), got depth 0',
      ],
      [
        { DEPOSIT_XPUB_EVM_LIVE: DEVELOPMENT_ACCOUNT_XPUBS.evm, DEPOSIT_XPUB_TRON_LIVE: DEVELOPMENT_ACCOUNT_XPUBS.tron },
        'DEPOSIT_XPUB_EVM_TEST: must differ from the live xpubs',
      ],
    ];
    for (const [env, expected] of cases) expect(refusal(env, 'worker')).toContain(expected);
    expect(refusal({ DEPOSIT_XPUB_EVM_LIVE: accountPrivate, DEPOSIT_XPUB_TRON_LIVE: live.tron }, 'worker')).not.toContain(accountPrivate);
  });

  it('prints, for the signer, the worker variables its seeds call for', () => {
    expect(depositXpubVariables({ test: DEVELOPMENT_ACCOUNT_XPUBS, live })).toEqual([
      `DEPOSIT_XPUB_EVM_TEST=${DEVELOPMENT_ACCOUNT_XPUBS.evm}`,
      `DEPOSIT_XPUB_TRON_TEST=${DEVELOPMENT_ACCOUNT_XPUBS.tron}`,
      `DEPOSIT_XPUB_EVM_LIVE=${live.evm}`,
      `DEPOSIT_XPUB_TRON_LIVE=${live.tron}`,
    ]);
    expect(depositXpubVariables({ test: DEVELOPMENT_ACCOUNT_XPUBS, live: undefined }).at(-1)).toBe(
      '# no DEPOSIT_MNEMONIC_LIVE: no live xpubs',
    );
  });
});
