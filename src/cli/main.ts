/** The `mod97` command (see bin/mod97.js). */
import { runCli } from './run.ts';

// A reader that stops early (`mod97 data list | head -5`) closes the pipe: the command ends there,
// quietly and with exit 0, as `cat` would, instead of dying on the unhandled EPIPE with a stack trace.
// `mod97 batch` writes what it makes to a file and only its progress to the pipe: a paid run goes
// on to its end (and its own exit code) when nobody reads the progress any more.
const progressOnly = process.argv[2] === 'batch';
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
    if (!progressOnly) process.exit(0);
  });
}

process.exitCode = await runCli(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stderr: process.stderr,
});
