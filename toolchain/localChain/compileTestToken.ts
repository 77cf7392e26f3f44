import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';
import { z } from 'zod';
import { toolsDir } from '../paths';

export interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
}

const SOURCE_NAME = 'TestToken.sol';
const CONTRACT_NAME = 'TestToken';
const sourcePath = fileURLToPath(new URL(`./${SOURCE_NAME}`, import.meta.url));
const cachePath = join(toolsDir, 'cache', `${CONTRACT_NAME}.json`);

const settings = {
  // Hardhat 2.29 defaults to Osaka; Prague (solc 0.8.30's own default) emits nothing Osaka lacks.
  evmVersion: 'prague',
  optimizer: { enabled: true, runs: 200 },
  outputSelection: { [SOURCE_NAME]: { [CONTRACT_NAME]: ['abi', 'evm.bytecode.object'] } },
};

const hexSchema = z.custom<Hex>((value) => typeof value === 'string' && /^0x[0-9a-f]+$/i.test(value));
// solc's ABI JSON is what viem's Abi type describes; checking every entry's shape would only restate the solc spec.
const abiSchema = z.array(z.object({ type: z.string() }).loose()).transform((abi) => abi as unknown as Abi);

const cacheSchema = z.object({ key: z.string(), abi: abiSchema, bytecode: hexSchema });

const solcOutputSchema = z.object({
  errors: z.array(z.object({ severity: z.string(), formattedMessage: z.string() })).optional(),
  contracts: z
    .record(z.string(), z.record(z.string(), z.object({ abi: abiSchema, evm: z.object({ bytecode: z.object({ object: z.string() }) }) })))
    .optional(),
});

let compiled: Promise<CompiledContract> | undefined;

/**
 * ABI and creation bytecode of TestToken.sol (next to this file). solc-js takes about a second to load, so
 * the result is cached on disk, keyed by the source, the compiler version and the settings.
 */
export function compileTestToken(): Promise<CompiledContract> {
  compiled ??= load();
  return compiled;
}

async function load(): Promise<CompiledContract> {
  const source = readFileSync(sourcePath, 'utf8');
  const key = cacheKey(source);
  const cached = readCache(key);
  if (cached) return cached;

  const { default: solc } = await import('solc');
  const input = { language: 'Solidity', sources: { [SOURCE_NAME]: { content: source } }, settings };
  const output = solcOutputSchema.parse(JSON.parse(solc.compile(JSON.stringify(input)) as string));
  const errors = (output.errors ?? []).filter((entry) => entry.severity === 'error').map((entry) => entry.formattedMessage);
  if (errors.length > 0) throw new Error(`solc could not compile ${SOURCE_NAME}:\n${errors.join('\n')}`);

  const contract = output.contracts?.[SOURCE_NAME]?.[CONTRACT_NAME];
  if (!contract) throw new Error(`solc produced no ${CONTRACT_NAME} contract for ${SOURCE_NAME}`);
  const result: CompiledContract = { abi: contract.abi, bytecode: hexSchema.parse(`0x${contract.evm.bytecode.object}`) };
  writeCache({ key, ...result });
  return result;
}

function cacheKey(source: string): string {
  const { version } = createRequire(import.meta.url)('solc/package.json') as { version: string };
  return createHash('sha256').update(JSON.stringify({ version, settings, source })).digest('hex');
}

function readCache(key: string): CompiledContract | undefined {
  let raw: string;
  try {
    raw = readFileSync(cachePath, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = cacheSchema.safeParse(safeJsonParse(raw));
  if (!parsed.success || parsed.data.key !== key) return undefined;
  return { abi: parsed.data.abi, bytecode: parsed.data.bytecode };
}

function safeJsonParse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function writeCache(entry: CompiledContract & { key: string }): void {
  mkdirSync(join(toolsDir, 'cache'), { recursive: true });
  // Test files run in parallel workers: write aside and rename so no reader ever sees half a file.
  const temporary = `${cachePath}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(entry, null, 2));
  renameSync(temporary, cachePath);
}
