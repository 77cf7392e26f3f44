// The layering the code keeps, checked by `npm run lint` and `npm test`.
// domain/ holds decisions and types; config/ validates the environment. Both sit below every process
// (api, workers, indexers, db, bin), so neither may import from them; contracts/artifacts is generated
// ABI and bytecode, data below domain/.
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
