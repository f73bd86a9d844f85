// The import rules `npm run lint` checks (dependency-cruiser). docs/architecture.md explains them.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Imports point one way. Two modules that need each other belong together, or the types they share belong to the lower one.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-stays-shared',
      severity: 'error',
      comment: 'shared is what the cloud and the agent both build on: it imports neither.',
      from: { path: '^shared/' },
      to: { path: '^(cloud|agent|sdk)/' },
    },
    {
      name: 'sdk-stands-alone',
      severity: 'error',
      comment:
        'The SDK ships to browsers with no runtime dependency: it imports nothing of the other packages.',
      from: { path: '^sdk/' },
      to: { path: '^(shared|cloud|agent)/' },
    },
    {
      name: 'no-test-support-in-sources',
      severity: 'error',
      comment:
        'Test support (the testing/ folders) is for tests and benches only; no source file imports it. The screenshot script is a browser test that writes pictures: it may.',
      from: {
        path: '^(shared|cloud|agent)/',
        pathNot: ['\\.test\\.ts$', '/testing/', '^cloud/dashboard/scripts/screenshots\\.ts$'],
      },
      to: { path: '^(shared|cloud|agent)/src/testing/' },
    },
    {
      name: 'tests-through-exports',
      severity: 'error',
      comment:
        "test/ and bench/ use the packages as their users do: the public export ('@printwire/cloud') or the test support ('@printwire/cloud/testing'), never a relative path into a package's src/.",
      from: { path: '^(test|bench)/' },
      to: {
        path: '^(shared|cloud|agent|sdk)/(src|scripts)/',
        // A package's name resolves into its src/ too; only relative paths are refused.
        dependencyTypesNot: ['aliased-workspace'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|fixtures|\\.printwire|dist)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    tsConfig: { fileName: 'tsconfig.base.json' },
  },
};
