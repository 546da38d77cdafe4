/** The `mod97` command (see bin/mod97.js). */
import { runCli } from './run.ts';

process.exitCode = await runCli(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stderr: process.stderr,
});
