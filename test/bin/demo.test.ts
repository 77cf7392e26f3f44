// `npm run demo` as a new user runs it: a real child process (`node --import tsx bin/demo.ts`) that starts its own
// stack (embedded Postgres, Temporal dev server, local Hardhat chain, indexer, worker, API), pays one session with
// a real ERC-20 transfer (or, with --refund, an SPL transfer through the local Solana chain's JSON-RPC that overpays,
// and the excess claimed back) and checks the webhook's signature; on the local EVM chain it then follows the deposit
// back to the treasury (sweep, swap, burn, attestation, receive) and shows the ledger's closing position. The USDT run
// covers the USDC one (bin/demo.ts takes the same steps bar the swap), so it alone runs: each run costs its own stack.
// The demo's arguments are checked in demoOptions.test.ts. Nothing of the test run's own servers is shared.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEMO_TIMEOUT_MS = 110_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runDemo(args: string[] = []): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/demo.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // SIGINT, as Ctrl-C would: the demo then stops what it started.
    const timer = setTimeout(() => child.kill('SIGINT'), DEMO_TIMEOUT_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('npm run demo', () => {
  it(
    'pays a session in USDT on the local chain, follows it to completed, verifies the webhook and swaps the deposit to USDC on its way back to the treasury',
    { timeout: DEMO_TIMEOUT_MS + 20_000 },
    async () => {
      const run = await runDemo(['--chain', 'base', '--token', 'USDT']);
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.code, output).toBe(0);

      expect(run.stdout).toMatch(/one test-mode USDT payment on a local chain \(base\)/);
      expect(run.stdout).toMatch(/status awaiting_payment\n/);
      const usdt = /USDT test token (0x[0-9a-fA-F]{40})/.exec(run.stdout)?.[1];
      expect(run.stdout).toMatch(new RegExp(`token contract +${usdt}\n`));
      expect(run.stdout).toMatch(/USDT transfer\(0x[0-9a-fA-F]{40}, 25500000\) from 0x[0-9a-fA-F]{40}: tx 0x[0-9a-f]{64} in block #\d+/);
      expect(run.stdout).toMatch(/status confirming \d+\/64\n/);
      expect(run.stdout).toMatch(/mined 63 blocks after the transfer's own: 64 confirmations, 64 required/);
      expect(run.stdout).toMatch(/status completed 64\/64\n/);
      expect(run.stdout).toMatch(/X-Service-Event +payment\.completed/);
      expect(run.stdout).toMatch(/"status": "completed"/);
      expect(run.stdout).toMatch(/"token_symbol": "USDT"/);
      expect(run.stdout).toMatch(/verifyWebhookSignature\(rawBody, X-Service-Signature, test webhook secret, 300\) → valid/);
      expect(run.stdout).toMatch(/✔ demo finished in [\d.]+ s: session cs_\w+ completed, webhook verified/);
      expectMerchantSolanaLines(run.stdout);
      // The deposit address is the local deposit factory's clone for the session, and the payout's signature is shown.
      expect(run.stdout).toMatch(/deposit address is +deposit factory 0x[0-9a-fA-F]{40}'s clone for the session, computed offline/);
      expect(run.stdout).toMatch(/payout signature +[1-9A-HJ-NP-Za-km-z]{64,88} \(treasury → merchant on the local Solana chain\)/);

      // The inventory path's steps, in order, after the payout: the USDT is swapped to USDC before the burn.
      expect([...run.stdout.matchAll(/▸ (sweep|swap|burn|attestation|refill): /g)].map((match) => match[1])).toEqual([
        'sweep',
        'swap',
        'burn',
        'attestation',
        'refill',
      ]);
      expect(run.stdout).toMatch(/sweep tx +0x[0-9a-f]{64} in block #\d+: sweepMany by the relayer 0x[0-9a-fA-F]{40}/);
      expect(run.stdout).toMatch(
        /swept +25\.5 USDT from 0x[0-9a-fA-F]{40} \(clone deployed in the same call\) to the collector 0x[0-9a-fA-F]{40}/,
      );
      expect(run.stdout).toMatch(
        /swap tx +0x[0-9a-f]{64} in block #\d+: DepositCollector\.swap → SwapRouter02 0x[0-9a-fA-F]{40} exactInputSingle, gas used \d+/,
      );
      // Through the real pool at 1:1: its 0.01% fee and price impact, within SWAP_MAX_DEVIATION_BPS (0.5%) of par.
      const out = units(/swapped +25\.5 USDT for ([\d.]+) USDC in the local USDT\/USDC pool/.exec(run.stdout)?.[1]);
      expect(out).toBeLessThan(25_500_000n);
      expect(out).toBeGreaterThanOrEqual((25_500_000n * 9_950n) / 10_000n);
      expect(run.stdout).toMatch(/burn tx +0x[0-9a-f]{64} in block #\d+: DepositCollector\.burn/);
      expect(run.stdout).toMatch(new RegExp(`burned +${literal(usdc(out))} USDC to domain 5 \\(Solana\\)`));
      expect(run.stdout).toMatch(/nonce +0x[0-9a-f]{64}\n/);
      expect(run.stdout).toMatch(
        new RegExp(`refill: receive_message on the local Solana chain minted ${literal(usdc(out))} USDC to the treasury`),
      );
      const refilled = usdc(999_974_500_000n + out);
      expect(run.stdout).toMatch(
        new RegExp(
          `treasury before +999974\\.5 USDC\n +treasury after +${literal(refilled)} USDC\n +deposit confirmed → refill +[\\d.]+ s`,
        ),
      );
      // The balances after each step: the collector's USDT becomes USDC, leaves by the burn and refills the treasury.
      expect([...run.stdout.matchAll(/balances (?:before|after) +(.+)\n/g)].map((match) => match[1])).toEqual([
        'collector USDT 0, collector USDC 0, treasury USDC 999974.5, merchant USDC 25.5',
        'collector USDT 25.5, collector USDC 0, treasury USDC 999974.5, merchant USDC 25.5',
        `collector USDT 0, collector USDC ${usdc(out)}, treasury USDC 999974.5, merchant USDC 25.5`,
        'collector USDT 0, collector USDC 0, treasury USDC 999974.5, merchant USDC 25.5',
        `collector USDT 0, collector USDC 0, treasury USDC ${refilled}, merchant USDC 25.5`,
      ]);
      expectTreasuryLines(run.stdout, ['1000000', '999974.5', refilled]);

      // The ledger's closing position once the path's workflows posted: the collector and the treasury agree with the
      // chains (the treasury's SOL too: the receive's fee and rent are posted), and what the swap cost against 1:1 is
      // the swap's.
      expect(run.stdout).toMatch(/posted: the path's workflows under way \(.*transfer_tr_\w+.*\) ended/);
      for (const [account, asset] of [
        ['treasury:solana', 'usdc:solana'],
        ['collector:base', 'usdc:base'],
        ['collector:base', 'usdt:base'],
      ])
        expect(run.stdout).toMatch(new RegExp(`${account} +${asset} +ledger [\\d.]+, on chain [\\d.]+: agree\n`));
      expect(run.stdout).toMatch(new RegExp(`swap_costs:base +usdc:solana +ledger ${literal(usdc(25_500_000n - out))}\n`));
      expect(run.stdout).not.toMatch(/transfers_in_flight|cross_chain_clearing/);
      expect(run.stdout).toMatch(/reconciliation: no differences/);

      // The throw-away data directory is gone once the demo exits.
      const dataDir = /throw-away data directory \((.+)\)/.exec(run.stdout)?.[1];
      expect(dataDir).toBeDefined();
      expect(existsSync(dataDir!)).toBe(false);
    },
  );

  it(
    'with --refund, overpays with an SPL transfer on the local Solana chain and the customer claims the excess back from the treasury',
    { timeout: DEMO_TIMEOUT_MS + 20_000 },
    async () => {
      const run = await runDemo(['--refund']);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);

      const mint = /USDC mint ([1-9A-HJ-NP-Za-km-z]{32,44})/.exec(run.stdout)?.[1];
      expect(mint).toBeDefined();
      expect(run.stdout).toMatch(new RegExp(`token contract +${mint}\n`));
      // 25.5 asked for, 30 sent: 4.5 beyond the price, past any tolerance.
      expect(run.stdout).toMatch(
        /USDC transferChecked\([1-9A-HJ-NP-Za-km-z]{32,44}, 30000000\) from [1-9A-HJ-NP-Za-km-z]{32,44}: signature [1-9A-HJ-NP-Za-km-z]{64,88} in slot #\d+/,
      );
      expect(run.stdout).toMatch(/status confirming \d+\/32\n/);
      expect(run.stdout).toMatch(/status overpaid 32\/32\n/);
      // The service made the refund by itself; the customer claimed it and received the excess less the 0.01 USD fee.
      expect(run.stdout).toMatch(/refund ref_\w+ \(overpayment\), pending_claim/);
      expect(run.stdout).toMatch(/claim link +http:\/\/127\.0\.0\.1:\d+\/refunds\/ref_\w+\.[\w-]+\n/);
      expect(run.stdout).toMatch(/customer wallet received +4\.49 USDC \(fee 0\.01 USD\)/);
      expect(run.stdout).toMatch(/webhook received: refund\.completed, signature valid/);
      expect(run.stdout).toMatch(/✔ demo finished in [\d.]+ s: session cs_\w+ overpaid and its excess refunded, webhook verified/);
      expectMerchantSolanaLines(run.stdout);
      // The payout of the price, then the refund of the excess less its fee: 25.5 + 4.49 left the treasury.
      expectTreasuryLines(run.stdout, ['1000000', '999974.5', '999970.01']);
      // The indexer starts at the fresh chain's first slot, never asking for slots before its genesis.
      expect(run.stderr).not.toMatch(/cleaned up/);
    },
  );
});

/** The merchant's USDC on the local Solana chain, before and after: the treasury's payout adds exactly 25.5. */
function expectMerchantSolanaLines(stdout: string): void {
  const balances = [
    ...stdout.matchAll(/merchant's settlement wallet ([1-9A-HJ-NP-Za-km-z]{32,44}) holds (\S+) USDC on the local Solana chain/g),
  ];
  expect(balances.map((match) => match[2])).toEqual(['0', '25.5']);
  expect(balances[0]?.[1]).toBe(balances[1]?.[1]);
  expect(stdout).toMatch(
    /settlement: solana-treasury \(reference [1-9A-HJ-NP-Za-km-z]{64,88}, 25\.5 USDC\): paid from the treasury on the local Solana chain/,
  );
}

/** USDC (6 decimals) as the demo prints it, without trailing zeros, as base units. */
function units(text: string | undefined): bigint {
  expect(text).toMatch(/^\d+(\.\d{1,6})?$/);
  const [whole = '0', fraction = ''] = text!.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}

/** Base units as the demo prints USDC. */
function usdc(baseUnits: bigint): string {
  const fraction = (baseUnits % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${baseUnits / 1_000_000n}${fraction ? `.${fraction}` : ''}`;
}

/** An amount as it appears in a RegExp. */
const literal = (amount: string) => amount.replace('.', '\\.');

/** The treasury's USDC on the local Solana chain: before the payment, after the payout and (on base) after the inventory path. */
function expectTreasuryLines(stdout: string, expected: string[]): void {
  const balances = [...stdout.matchAll(/treasury ([1-9A-HJ-NP-Za-km-z]{32,44}) holds (\S+) USDC/g)];
  expect(balances.map((match) => match[2])).toEqual(expected);
}
