// The layering the code keeps, checked by `npm run lint` and `npm test`.
// domain/ holds decisions and types; config/ validates the environment. Both sit below every process
// (api, workers, indexers, db, bin), so neither may import from them; contracts/artifacts is generated
// ABI and bytecode, data below domain/. signer/ is the process holding the keys, kept apart from the others.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle makes load order matter and hides which module owns a concept.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-stays-pure',
      severity: 'error',
      comment: 'domain/ is pure decisions and types: it imports only domain/ and the generated contract artifacts.',
      from: { path: '^domain/' },
      to: { path: '^(?!domain/|contracts/artifacts/)[^/]+/', pathNot: '^node_modules/' },
    },
    {
      name: 'config-below-processes',
      severity: 'error',
      comment: 'config/ validates the environment; it builds on domain/ and nothing above it.',
      from: { path: '^config/' },
      to: { path: '^(?!domain/|config/|contracts/artifacts/)[^/]+/', pathNot: '^node_modules/' },
    },
    {
      name: 'artifacts-are-data',
      severity: 'error',
      comment: 'Generated contract artifacts are data: they import nothing of the project.',
      from: { path: '^contracts/artifacts/' },
      to: { path: '^(?!node_modules/)', pathNot: '^contracts/artifacts/' },
    },
    {
      name: 'signer-stands-apart',
      severity: 'error',
      comment:
        'signer/ is the one process given signing material (docs/settlement.md#r4-keys-in-the-signer-alone): the other ' +
        'processes reach it through its Temporal task queue, never by loading its code. Only its entry (bin/signer.ts) ' +
        'and the stacks that run every process in one (worker/inProcessWorkers.ts, bin/devStack.ts, the demo, the bench, ' +
        'the tests) import it; workflows have their own rule below.',
      from: {
        pathNot: [
          '^signer/',
          '^bin/(signer|devStack)\\.ts$',
          '^bin/demo/',
          '^worker/inProcessWorkers\\.ts$',
          '^bench/',
          '^test/',
          '^workflows/',
        ],
      },
      to: { path: '^signer/' },
    },
    {
      name: 'workflows-name-signer-types-only',
      severity: 'error',
      comment:
        "A workflow schedules the signer's activities on its queue by their types (import type): loading signer code " +
        'into the workflow bundle would put it in the session worker.',
      from: { path: '^workflows/' },
      to: { path: '^signer/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'signer-holds-no-api-or-webhooks',
      severity: 'error',
      comment:
        'The signer loads only what signing needs: the API and the webhook delivery code (outbound HTTP to merchant ' +
        'URLs) would widen what runs next to the keys.',
      from: { path: ['^signer/', '^bin/signer\\.ts$'] },
      to: { path: ['^api/', '^activities/webhooks/', '^worker/createWebhookWorker\\.ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.tools|\\.data|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mjs', '.js', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
  },
};
