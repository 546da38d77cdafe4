/**
 * The direction of imports in src/ (src/README.md): edge → services → domain → store, no cycles;
 * and what the client package (clients/typescript) may import.
 * `npm test` runs `depcruise src clients/typescript/src` against these rules.
 */
const DOMAIN = '^src/(keys|quota|iban|data|mail|payments)/';
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
    {
      name: 'routes-only-from-app-and-mcp',
      comment: 'Routes are the edge: only app.ts and mcp/ assemble them.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/routes/', '^src/app\\.ts$', '^src/mcp/'] },
      to: { path: '^src/routes/' },
    },
    {
      name: 'http-stays-at-the-edge',
      comment: 'http/ is the pipeline; it does not reach into routes/ or the services wiring.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: ['^src/routes/', '^src/services\\.ts$'] },
    },
    {
      name: 'domain-knows-no-http',
      comment: 'The domain takes its inputs; it imports nothing of the edge.',
      severity: 'error',
      from: { path: [DOMAIN, '^src/store/'] },
      to: {
        path: ['^src/api/', '^src/http/', '^src/routes/', '^src/web/', '^src/mcp/', '^src/app\\.ts$', '^src/services\\.ts$', 'fastify'],
      },
    },
    {
      name: 'api-is-the-contract',
      comment:
        'api/ declares the routes and their wire schemas: the edge (http/, routes/, mcp/, web/) derives everything from it and the typed client shares its schemas, so it imports only the domain below, never the edge, the wiring or Fastify.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: ['^src/http/', '^src/routes/', '^src/web/', '^src/mcp/', '^src/cli/', '^clients/', '^src/app\\.ts$', '^src/services\\.ts$', 'fastify'] },
    },
    {
      name: 'client-shares-only-the-contract',
      comment:
        'The client is a package of its own (clients/typescript, mod97-client; re-exported as mod97/client): of src/ it imports only the wire schemas in api/.',
      severity: 'error',
      from: { path: '^clients/typescript/src/' },
      to: { path: '^src/', pathNot: ['^src/api/'] },
    },
    {
      name: 'client-imports-nothing-at-run-time',
      comment:
        'mod97-client has no dependency: what it imports from outside its own folder is a type, which its build writes out in declarations that import nothing.',
      severity: 'error',
      from: { path: '^clients/typescript/src/' },
      // typebox: its `Static` type, imported as a type, which dependency-cruiser cannot resolve
      // (the built client importing nothing at all is checked by test/client/package.test.ts).
      to: { pathNot: ['^clients/typescript/src/', '^typebox$'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'store-is-the-bottom',
      comment: 'The store serves the domain and imports none of it; the records both share live below it (records.ts).',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: DOMAIN },
    },
    {
      name: 'records-are-the-bottom',
      comment: 'records.ts holds what the domain and the store share, below both: it imports nothing of src/.',
      severity: 'error',
      from: { path: '^src/records\\.ts$' },
      to: { path: '^src/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/data/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6'],
  },
};
