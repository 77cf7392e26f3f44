/**
 * Where the deposit-address seed comes from. Test mode may fall back to the well-known development
 * mnemonic so local runs and CI need no secret; live mode must be given its own mnemonic, because
 * anyone can spend from addresses derived from the public one.
 */
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import type { Mode } from '../wire/session';
import type { AccountXpubs } from './hdDerivation';

/** The Hardhat/Anvil/Foundry default mnemonic: its keys are public, so it is only fit for test mode. */
export const DEVELOPMENT_MNEMONIC = 'test test test test test test test test test test test junk';

/**
 * The development mnemonic's account xpubs (derive.ts paths): the main worker's test-mode default, matching the
 * signer's fallback to that mnemonic, so the worker never needs a mnemonic to be told them.
 */
export const DEVELOPMENT_ACCOUNT_XPUBS: AccountXpubs = {
  evm: 'xpub6DyUKdwoLWmUJ4Tn9Bbsdtx7B5Ws18mEN19e5HT52ikE53FiUheSQXrZUNPovqfyKmw4579A1Mm3GXXKM39N64uooBfJ4tNAzFsEbodRTx4',
  tron: 'xpub6FGfJkAgwSdiFiFcxWt2rurqZu8YjuEmKfsxLVBrQwr1ZjHpqYEXR9w52uCGyMdmsatMr7VXgNLuoHyFKtK8LZDCVbrMetUGeTLXvWk8y4W',
};

export type DepositSeedRefusal = 'missing_mnemonic' | 'development_mnemonic_in_live' | 'invalid_mnemonic';

export class DepositSeedRefusedError extends Error {
  override name = 'DepositSeedRefusedError';
  constructor(
    readonly reason: DepositSeedRefusal,
    message: string,
  ) {
    super(message);
  }
}

export type DepositSeedSource = { mode: Mode; mnemonic?: string | undefined };

/** One seed per mode (DEPOSIT_MNEMONIC_TEST, DEPOSIT_MNEMONIC_LIVE): test keys never derive from live key material. */
export type DepositMnemonics = Record<Mode, string | undefined>;

/** Wallets treat any run of whitespace as one separator; so do we, so the same words always give the same seed. */
function normalizeMnemonic(mnemonic: string): string {
  return mnemonic.trim().split(/\s+/).join(' ');
}

/** The 64-byte BIP-39 seed (empty passphrase). The error messages never echo the mnemonic. */
export function depositSeed({ mode, mnemonic }: DepositSeedSource): Uint8Array {
  const given = mnemonic === undefined || mnemonic.trim() === '' ? undefined : normalizeMnemonic(mnemonic);
  if (given === undefined && mode === 'live') {
    throw new DepositSeedRefusedError('missing_mnemonic', 'live mode needs a deposit-address mnemonic; none was configured');
  }
  const words = given ?? DEVELOPMENT_MNEMONIC;
  if (mode === 'live' && words === DEVELOPMENT_MNEMONIC) {
    throw new DepositSeedRefusedError(
      'development_mnemonic_in_live',
      'live mode refuses the public development mnemonic: funds sent to its addresses can be taken by anyone',
    );
  }
  if (!validateMnemonic(words, wordlist)) {
    throw new DepositSeedRefusedError(
      'invalid_mnemonic',
      'the deposit-address mnemonic is not a valid BIP-39 English mnemonic (12-24 words from the list, correct checksum)',
    );
  }
  return mnemonicToSeedSync(words);
}

/** Per mode, the seed, made once at start (BIP-39 stretching is deliberately slow); live has none unless its mnemonic is given. */
export type DepositSeeds = Record<Mode, Uint8Array | undefined>;

export function depositSeeds(mnemonics: DepositMnemonics): DepositSeeds {
  return {
    test: depositSeed({ mode: 'test', mnemonic: mnemonics.test }),
    live: mnemonics.live?.trim() ? depositSeed({ mode: 'live', mnemonic: mnemonics.live }) : undefined,
  };
}
