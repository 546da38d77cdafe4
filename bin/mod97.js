#!/usr/bin/env node
// npm bin shim: runs the `mod97` command from its bundle, built from src/cli by `npm run build`
// (npm runs it as `prepare` on install; `npm start` and `npm test` rebuild it too).
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write('mod97: dist/cli.js is missing; run `npm run build` in the mod97 folder first.\n');
  process.exit(2);
}
await import(bundle.href);
