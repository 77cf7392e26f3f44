// Compiles Solidity with solc-js (a devDependency): the production contracts, to check their committed
// artifacts (contracts/artifacts/), and the local chain's test tokens at setup.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import type { Abi, Hex } from 'viem';
import { z } from 'zod';
import { toolsDir } from '../paths';

export interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
}

/** Source files compiled together; each is known to solc by its file name, so `import "./X.sol"` finds a sibling. */
export interface SolidityUnit {
  /** Names the on-disk cache entry: one per unit. */
  name: string;
  files: readonly string[];
}

export const SOLC_SETTINGS = {
  // Hardhat 2.29 defaults to Osaka; Prague (solc 0.8.30's own default) emits nothing Osaka lacks.
  evmVersion: 'prague',
  optimizer: { enabled: true, runs: 200 },
  // No metadata hash in the bytecode: a deployment address is a function of the bytecode, and an edited comment
  // must not move every deposit address. The CBOR trailer keeps the compiler version.
  metadata: { bytecodeHash: 'none' },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

const hexSchema = z.custom<Hex>((value) => typeof value === 'string' && /^0x[0-9a-f]+$/i.test(value));
// solc's ABI JSON is what viem's Abi type describes; checking every entry's shape would only restate the solc spec.
const abiSchema = z.array(z.object({ type: z.string() }).loose()).transform((abi) => abi as unknown as Abi);
const contractsSchema = z.record(z.string(), z.object({ abi: abiSchema, bytecode: hexSchema }));

const cacheSchema = z.object({ key: z.string(), contracts: contractsSchema });

const solcOutputSchema = z.object({
  errors: z.array(z.object({ severity: z.string(), formattedMessage: z.string() })).optional(),
  contracts: z
    .record(z.string(), z.record(z.string(), z.object({ abi: abiSchema, evm: z.object({ bytecode: z.object({ object: z.string() }) }) })))
    .optional(),
});

const compiled = new Map<string, Promise<Record<string, CompiledContract>>>();

/**
 * ABI and creation bytecode of every contract in the unit, by contract name. solc-js takes about a second to load,
 * so the result is cached on disk, keyed by the sources, the compiler version and the settings.
 */
export function compileSolidity(unit: SolidityUnit): Promise<Record<string, CompiledContract>> {
  let result = compiled.get(unit.name);
  if (!result) {
    result = load(unit);
    compiled.set(unit.name, result);
  }
  return result;
}

/** One contract of the unit; throws when the unit has none of that name. */
export async function compileContract(unit: SolidityUnit, contractName: string): Promise<CompiledContract> {
  const contract = (await compileSolidity(unit))[contractName];
  if (!contract) throw new Error(`solc produced no ${contractName} contract in ${unit.name}`);
  return contract;
}

async function load(unit: SolidityUnit): Promise<Record<string, CompiledContract>> {
  const sources = Object.fromEntries(unit.files.map((file) => [basename(file), { content: readFileSync(file, 'utf8') }]));
  const cachePath = join(toolsDir, 'cache', `${unit.name}.json`);
  const key = cacheKey(sources);
  const cached = readCache(cachePath, key);
  if (cached) return cached;

  const { default: solc } = await import('solc');
  const input = { language: 'Solidity', sources, settings: SOLC_SETTINGS };
  const output = solcOutputSchema.parse(JSON.parse(solc.compile(JSON.stringify(input)) as string));
  const errors = (output.errors ?? []).filter((entry) => entry.severity === 'error').map((entry) => entry.formattedMessage);
  if (errors.length > 0) throw new Error(`solc could not compile ${unit.name}:\n${errors.join('\n')}`);

  const contracts: Record<string, CompiledContract> = {};
  for (const perSource of Object.values(output.contracts ?? {})) {
    for (const [name, contract] of Object.entries(perSource)) {
      // Interfaces have no bytecode: nothing to deploy.
      if (contract.evm.bytecode.object === '') continue;
      contracts[name] = { abi: contract.abi, bytecode: hexSchema.parse(`0x${contract.evm.bytecode.object}`) };
    }
  }
  writeCache(cachePath, { key, contracts });
  return contracts;
}

/** The version of the installed solc-js, which the committed artifacts were built with. */
export function solcVersion(): string {
  return (createRequire(import.meta.url)('solc/package.json') as { version: string }).version;
}

function cacheKey(sources: Record<string, { content: string }>): string {
  return createHash('sha256')
    .update(JSON.stringify({ version: solcVersion(), settings: SOLC_SETTINGS, sources }))
    .digest('hex');
}

function readCache(cachePath: string, key: string): Record<string, CompiledContract> | undefined {
  let raw: string;
  try {
    raw = readFileSync(cachePath, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = cacheSchema.safeParse(safeJsonParse(raw));
  if (!parsed.success || parsed.data.key !== key) return undefined;
  return parsed.data.contracts;
}

function safeJsonParse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function writeCache(cachePath: string, entry: z.infer<typeof cacheSchema>): void {
  mkdirSync(join(toolsDir, 'cache'), { recursive: true });
  // Test files run in parallel workers: write aside and rename so no reader ever sees half a file.
  const temporary = `${cachePath}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(entry, null, 2));
  renameSync(temporary, cachePath);
}
