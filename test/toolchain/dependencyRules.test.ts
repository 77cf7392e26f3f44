// The layering rules of .dependency-cruiser.cjs, applied to a small tree that breaks each of them: a rule
// that matched nothing would let `npm run lint` pass whatever the code did.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type IConfiguration, type ICruiseOptions } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration;

const tree: Record<string, string> = {
  'domain/money/money.ts': 'export const cents = 1;\n',
  'domain/wire/session.ts':
    "import { cents } from '../money/money';\nimport * as factory from '../../contracts/artifacts/factory';\nexport const shape = [cents, factory.abi];\n",
  'domain/upward.ts': "import { handler } from '../api/handler';\nexport const up = handler;\n",
  'config/env.ts':
    "import { shape } from '../domain/wire/session';\nimport { query } from '../db/query';\nexport const env = [shape, query];\n",
  'contracts/artifacts/factory.ts': 'export const abi = [];\n',
  'contracts/artifacts/leaky.ts': "import { env } from '../../config/env';\nexport const leak = env;\n",
  'api/handler.ts': "import { shape } from '../domain/wire/session';\nexport const handler = shape;\n",
  'db/query.ts': 'export const query = 1;\n',
  'workers/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
  'workers/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
  'signer/activities.ts':
    "import { cents } from '../domain/money/money';\nexport type SignerActivities = { pay(): number };\nexport const pay = () => cents;\n",
  'signer/leaky.ts':
    "import { handler } from '../api/handler';\nimport { post } from '../activities/webhooks/post';\nimport { webhookWorker } from '../worker/createWebhookWorker';\nimport { fetchJson } from '../activities/http/jsonApi';\nexport const leak = [handler, post, webhookWorker, fetchJson];\n",
  'bin/signer.ts':
    "import { pay } from '../signer/activities';\nimport { handler } from '../api/handler';\nexport const run = [pay, handler];\n",
  'worker/inProcessWorkers.ts': "import { pay } from '../signer/activities';\nexport const all = pay;\n",
  'worker/createWorker.ts': "import { pay } from '../signer/activities';\nexport const session = pay;\n",
  'worker/createWebhookWorker.ts': 'export const webhookWorker = 1;\n',
  'activities/webhooks/post.ts': 'export const post = 1;\n',
  'activities/http/jsonApi.ts': 'export const fetchJson = 1;\n',
  'workflows/session.ts':
    "import type { SignerActivities } from '../signer/activities';\nexport const proxy = (a: SignerActivities) => a;\n",
  'workflows/eager.ts': "import { pay } from '../signer/activities';\nexport const eager = pay;\n",
};

let root: string;
let violations: { rule: string; from: string; to: string }[];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'checkout-deprules-'));
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  // The project's tsconfig does not cover the temporary tree; the rules and every other option are the real ones.
  const { tsConfig: _tsConfig, ...options } = config.options as ICruiseOptions;
  const result = await cruise(['.'], { ...options, baseDir: root, ruleSet: { forbidden: config.forbidden }, validate: true });
  const output = result.output as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  violations = output.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('dependency rules', () => {
  it('refuses domain/ importing a process folder, and lets it import domain/ and the contract artifacts', () => {
    expect(violations.filter((v) => v.rule === 'domain-stays-pure')).toEqual([
      { rule: 'domain-stays-pure', from: 'domain/upward.ts', to: 'api/handler.ts' },
    ]);
  });

  it('refuses config/ importing anything above domain/', () => {
    expect(violations.filter((v) => v.rule === 'config-below-processes')).toEqual([
      { rule: 'config-below-processes', from: 'config/env.ts', to: 'db/query.ts' },
    ]);
  });

  it('refuses generated artifacts importing project code', () => {
    expect(violations.filter((v) => v.rule === 'artifacts-are-data')).toEqual([
      { rule: 'artifacts-are-data', from: 'contracts/artifacts/leaky.ts', to: 'config/env.ts' },
    ]);
  });

  it('refuses another process importing signer/, and lets its entry and the all-in-one stack import it', () => {
    expect(violations.filter((v) => v.rule === 'signer-stands-apart')).toEqual([
      { rule: 'signer-stands-apart', from: 'worker/createWorker.ts', to: 'signer/activities.ts' },
    ]);
  });

  it('lets a workflow name signer activity types only, never load signer code', () => {
    expect(violations.filter((v) => v.rule === 'workflows-name-signer-types-only')).toEqual([
      { rule: 'workflows-name-signer-types-only', from: 'workflows/eager.ts', to: 'signer/activities.ts' },
    ]);
  });

  it('refuses the signer and its entry importing the API or the webhook code, and lets them use shared activities', () => {
    expect(violations.filter((v) => v.rule === 'signer-holds-no-api-or-webhooks')).toEqual([
      { rule: 'signer-holds-no-api-or-webhooks', from: 'bin/signer.ts', to: 'api/handler.ts' },
      { rule: 'signer-holds-no-api-or-webhooks', from: 'signer/leaky.ts', to: 'activities/webhooks/post.ts' },
      { rule: 'signer-holds-no-api-or-webhooks', from: 'signer/leaky.ts', to: 'api/handler.ts' },
      { rule: 'signer-holds-no-api-or-webhooks', from: 'signer/leaky.ts', to: 'worker/createWebhookWorker.ts' },
    ]);
  });

  it('refuses an import cycle', () => {
    expect(violations.filter((v) => v.rule === 'no-circular')).toEqual([{ rule: 'no-circular', from: 'workers/a.ts', to: 'workers/b.ts' }]);
  });
});
