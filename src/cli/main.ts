/** The `mod97` command (see bin/mod97.js). */
import { runCli } from './run.ts';

// A reader that stops early (`mod97 data list | head -5`) closes the pipe: the command ends there,
// quietly and with exit 0, as `cat` would, instead of dying on the unhandled EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(0);
  });
}

process.exitCode = await runCli(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stderr: process.stderr,
});
