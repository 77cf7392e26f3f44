// Signing material (docs/settlement.md#r4-keys-in-the-signer-alone): the variables only the signer worker may hold,
// and what each must look like. Every other process refuses to start when given one, so a key copied into the wrong
// container is caught at once rather than left readable by code that makes outbound calls. Messages name the
// variable, never its value.
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base58, hex } from '@scure/base';

export type ProcessName = 'api' | 'worker' | 'webhookWorker' | 'indexer' | 'signer' | 'admin' | 'migrate' | 'dev';

/** The signer, and `npm start`, which runs every process in one on purpose (its worker is handed xpubs only). */
const HOLDERS: ReadonlySet<ProcessName> = new Set(['signer', 'dev']);

type Check = (value: string) => string | undefined;

const SOLANA_KEYPAIR_BYTES = 64;

/** base58 of a 64-byte keypair (secret half, then its public half), the encoding `solana-keygen` and wallets export. */
const solanaKeypair: Check = (value) => {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(value.trim());
  } catch {
    return 'is not base58: expected a Solana keypair (base58 of 64 bytes)';
  }
  if (bytes.length !== SOLANA_KEYPAIR_BYTES) return `is not a Solana keypair: expected 64 bytes, got ${bytes.length}`;
  const derived = ed25519.getPublicKey(bytes.subarray(0, 32));
  return derived.every((byte, i) => byte === bytes[32 + i])
    ? undefined
    : 'is not a Solana keypair: its public half does not match its secret half';
};

const secp256k1Key =
  (prefix: '0x' | ''): Check =>
  (value) => {
    const text = value.trim();
    const body = prefix && text.startsWith(prefix) ? text.slice(prefix.length) : text;
    const shape = prefix ? '0x followed by 64 hex digits' : '64 hex digits';
    if ((prefix && !text.startsWith(prefix)) || !/^[0-9a-fA-F]{64}$/.test(body)) return `is not a secp256k1 private key: expected ${shape}`;
    return secp256k1.utils.isValidSecretKey(hex.decode(body.toLowerCase()))
      ? undefined
      : 'is not a valid secp256k1 private key (zero or above the curve order)';
  };

/** Mnemonics are checked where the seed is made (domain/addresses/depositSeed.ts), with the mode's own rules. */
const anyText: Check = () => undefined;

/** Test and live pairs: each variable, and the check its value must pass. */
const SIGNING_PAIRS: Record<string, Check> = {
  DEPOSIT_MNEMONIC: anyText,
  SOLANA_TREASURY_KEY: solanaKeypair,
  EVM_RELAYER_KEY: secp256k1Key('0x'),
  TRON_RELAYER_KEY: secp256k1Key(''),
};

/** Every signing variable, the old single DEPOSIT_MNEMONIC included (refused everywhere: the signer says what replaced it). */
export const SIGNING_VARIABLES: readonly string[] = [
  'DEPOSIT_MNEMONIC',
  ...Object.keys(SIGNING_PAIRS).flatMap((name) => [`${name}_TEST`, `${name}_LIVE`]),
];

export type ConfigIssue = { path: string; message: string };

/**
 * The signer runs per mode (SIGNER_MODE): it must be told which, and holds none of the other mode's signing
 * variables, so no process ever holds test and live keys together (docs/configuration.md#signer).
 */
export function signerModeIssues(env: NodeJS.ProcessEnv, process: ProcessName): ConfigIssue[] {
  if (process !== 'signer') return [];
  const mode = env.SIGNER_MODE?.trim();
  if (mode !== 'test' && mode !== 'live') {
    return [{ path: 'SIGNER_MODE', message: 'is required by the signer: test or live, the mode whose keys this signer holds' }];
  }
  const other = mode === 'test' ? 'LIVE' : 'TEST';
  return Object.keys(SIGNING_PAIRS)
    .map((name) => `${name}_${other}`)
    .filter((name) => given(env[name]))
    .map((path) => ({
      path,
      message: `belongs to the ${other.toLowerCase()} signer: this one runs SIGNER_MODE=${mode}, and test and live keys never share a process`,
    }));
}

const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';
const normalized = (value: string) => value.trim().split(/\s+/).join(' ');

/** What is wrong with the signing variables `env` holds, for `process`. */
export function signingMaterialIssues(env: NodeJS.ProcessEnv, process: ProcessName): ConfigIssue[] {
  const present = SIGNING_VARIABLES.filter((name) => given(env[name]));
  if (!HOLDERS.has(process)) {
    return present.map((path) => ({
      path,
      message: `is signing material and belongs to the signer only (npm run signer); the ${process} must not be given it`,
    }));
  }
  const issues: ConfigIssue[] = [];
  if (given(env.DEPOSIT_MNEMONIC)) {
    issues.push({
      path: 'DEPOSIT_MNEMONIC',
      message:
        'is split in two: set DEPOSIT_MNEMONIC_LIVE for live keys and, optionally, DEPOSIT_MNEMONIC_TEST for test keys (a different mnemonic)',
    });
  }
  for (const [name, check] of Object.entries(SIGNING_PAIRS)) {
    const [test, live] = [env[`${name}_TEST`], env[`${name}_LIVE`]];
    for (const [path, value] of [
      [`${name}_TEST`, test],
      [`${name}_LIVE`, live],
    ] as const) {
      const problem = given(value) ? check(value) : undefined;
      if (problem) issues.push({ path, message: problem });
    }
    if (given(test) && given(live) && normalized(test) === normalized(live)) {
      issues.push({ path: `${name}_TEST`, message: `must differ from ${name}_LIVE: test keys must never derive from live key material` });
    }
  }
  return issues;
}
