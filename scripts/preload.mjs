// Imported before tsx's loader is registered: these packages are plain JavaScript, and loading
// their hundreds of modules through the loader's hooks costs more than half a second of start.
await Promise.all(
  ['fastify', 'typebox', '@fastify/swagger', 'prom-client', 'better-sqlite3', 'fastify-plugin', 'ipaddr.js', 'eta'].map(
    (name) => import(name),
  ),
);
