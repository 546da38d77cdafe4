#!/usr/bin/env node
// npm bin shim: runs the `mod97` command from its bundle, dist/cli.js. The release (`npm pack`)
// ships it built; in a checkout `npm run build` builds it (npm runs it as `prepare` on install).
import { existsSync } from 'node:fs';
import { requireSupportedNode } from './node-version.js';

requireSupportedNode('mod97');

const bundle = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write(
    'mod97: dist/cli.js is missing: in a checkout, run `npm install` then `npm run build` in the mod97 folder.\n',
  );
  process.exit(2);
}
await import(bundle.href);
