// The import rules `npm run lint` checks (dependency-cruiser). docs/architecture.md explains them.
// Tests and test support may reach into any layer (a route's test seeds the store directly).
const TESTS = ['\\.test\\.ts$', '^cloud/src/testing/'];

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
      name: 'shared-pictures-stay-pure',
      severity: 'error',
      comment:
        'The label renderer, label graphics and the receipt engine are pure code: they never import shared/src/documents/, the one room of shared that loads native code (pdf.js with its canvas, sharp; eslint.config.js refuses those packages elsewhere in shared).',
      from: { path: '^shared/src/(label|label-graphics|receipt|escpos)/' },
      to: { path: '^shared/src/documents/' },
    },
    {
      name: 'ui-is-the-base',
      severity: 'error',
      comment:
        'ui/ is the web base the dashboard and the agent window build on: it imports neither app (nor the cloud or the agent).',
      from: { path: '^ui/' },
      to: { path: '^(cloud|agent)/' },
    },
    {
      name: 'sdk-stands-alone',
      severity: 'error',
      comment:
        'The SDK ships to browsers with no runtime dependency: of the other packages it imports only the local API’s wire contract, a module with no imports that its build inlines.',
      from: { path: '^sdk/' },
      to: {
        path: '^(shared|cloud|agent)/',
        pathNot: '^shared/src/contracts/local-api\\.ts$',
      },
    },
    // The cloud's layers, top to bottom (docs/architecture.md, "Import direction"):
    //   app.ts, server.ts, cli.ts, index.ts  (wiring)
    //   http/ (every route), gateway/ (the agents' WebSocket)
    //   services/, accounts/, webhooks/, alerts/, mail/, sandbox/  (the domain)
    //   resources/ (the API's schemas, presenters, field issues), bus/, cache/
    //   storage/
    //   lib/, config.ts
    // A layer imports only layers below it; nothing below imports upwards.
    {
      name: 'cloud-wiring-on-top',
      severity: 'error',
      comment:
        'app.ts, server.ts, cli.ts and index.ts wire the cloud together: no room of the cloud imports them.',
      from: {
        path: '^cloud/src/',
        pathNot: [
          '^cloud/src/(app|server|cli|index)\\.ts$',
          '\\.test\\.ts$',
          '^cloud/src/testing/',
        ],
      },
      to: { path: '^cloud/src/(app|server|cli|index)\\.ts$' },
    },
    {
      name: 'cloud-routes-apart',
      severity: 'error',
      comment:
        "http/ (routes) and gateway/ (the agents' WebSocket) are the two doors of the cloud: neither imports the other; both call services.",
      from: { path: '^cloud/src/(http|gateway)/', pathNot: TESTS },
      to: { path: '^cloud/src/(http|gateway)/', pathNot: '^cloud/src/$1/' },
    },
    {
      name: 'cloud-routes-call-services',
      severity: 'error',
      comment:
        "A route calls services, never storage: it may name the records' types (a type-only import of storage/), never hold the Store or call a repository.",
      from: { path: '^cloud/src/(http|gateway)/', pathNot: TESTS },
      to: {
        path: '^cloud/src/storage/',
        pathNot: '^cloud/src/storage/types\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'cloud-routes-hold-no-store',
      severity: 'error',
      comment:
        'A route that is handed the Store (storage/store.ts) calls storage: it is handed the services it needs instead.',
      from: { path: '^cloud/src/(http|gateway)/', pathNot: TESTS },
      to: { path: '^cloud/src/storage/store\\.ts$' },
    },
    {
      name: 'cloud-services-below-routes',
      severity: 'error',
      comment:
        'Services (services/, accounts/, webhooks/, alerts/, mail/, sandbox/) are called by the routes and the gateway; they never import them. What a service needs from the API (schemas, presenters, field issues) lives in resources/.',
      from: {
        path: '^cloud/src/(services|accounts|webhooks|alerts|mail|sandbox)/',
        pathNot: TESTS,
      },
      to: { path: '^cloud/src/(http|gateway)/' },
    },
    {
      name: 'cloud-resources-bus-cache-below-services',
      severity: 'error',
      comment:
        "resources/, bus/ and cache/ sit under the services: they import only storage/, lib/, config.ts and each other's own room.",
      from: { path: '^cloud/src/(resources|bus|cache)/', pathNot: TESTS },
      to: {
        path: '^cloud/src/',
        pathNot: ['^cloud/src/$1/', '^cloud/src/(storage|lib)/', '^cloud/src/config\\.ts$'],
      },
    },
    {
      name: 'cloud-storage-below-everything-but-lib',
      severity: 'error',
      comment:
        'storage/ is under every room but lib/ and config.ts: it imports nothing else of the cloud.',
      from: { path: '^cloud/src/storage/', pathNot: TESTS },
      to: {
        path: '^cloud/src/',
        pathNot: ['^cloud/src/(storage|lib)/', '^cloud/src/config\\.ts$'],
      },
    },
    {
      name: 'cloud-lib-is-the-floor',
      severity: 'error',
      comment: 'lib/ and config.ts are the floor of the cloud: they import no other room.',
      from: { path: '^cloud/src/(lib/|config\\.ts$)', pathNot: TESTS },
      to: { path: '^cloud/src/', pathNot: '^cloud/src/(lib/|config\\.ts$)' },
    },
    {
      name: 'cloud-websocket-frames-in-gateway',
      severity: 'error',
      comment:
        'gateway/ is the only place with WebSocket frames: no other source of the cloud imports ws (tests and test support may).',
      from: { path: '^cloud/src/', pathNot: ['^cloud/src/(gateway|testing)/', '\\.test\\.ts$'] },
      to: { path: '(^|/)node_modules/ws/' },
    },
    {
      name: 'cloud-sql-in-storage',
      severity: 'error',
      comment:
        'storage/ is the only place with SQL: no other source of the cloud imports kysely, better-sqlite3 or pg (tests and test support may).',
      from: { path: '^cloud/src/', pathNot: ['^cloud/src/(storage|testing)/', '\\.test\\.ts$'] },
      to: {
        path: '(^|/)node_modules/(kysely|better-sqlite3|pg|pg-[a-z-]+|@types/(better-sqlite3|pg))/',
      },
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
    // node_modules is not followed but stays in the graph, so that the rules about which room may
    // import a package (ws, kysely, pg, better-sqlite3, sharp…) see the import; a package's own
    // dist/ folder is where its entry point lives: only our own built dist/ folders are left out
    // (any dist/ whose path has no underscore, which every path through node_modules has).
    exclude: {
      path: '(^|/)(fixtures|\\.printwire)/|^[^_]*/dist/',
    },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    tsConfig: { fileName: 'tsconfig.base.json' },
  },
};
