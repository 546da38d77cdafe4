/**
 * `node --import tsx bench/cli-batch.ts`: `mod97 batch` (the command as users run it, a child
 * process) over generated CSV files against a local service in its own process, with a Pro-like
 * key whose quota never runs out. Rows per second and the command's peak RSS, for 10,000 and
 * 100,000 rows (and 1,000,000 with CLI_BENCH_MILLION=1), each IBAN distinct; a run with V8's old
 * space capped completes when the command's heap does not grow with the file. Writes the
 * cli-batch section of docs/benchmarks.md.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { austrianIban } from '../test/cli/run.ts';
import { cpuMsOf, residentMib } from '../test/support/proc.ts';
import { writeSection } from './report.ts';
import { buildBundles, SERVER, seedKeys, startTarget } from './targets.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SIZES = [10_000, 100_000, ...(process.env.CLI_BENCH_MILLION ? [1_000_000] : [])];
/**
 * Supplier `i`'s IBAN cell: each supplier its own account, so every IBAN is sent (`mod97 batch`
 * sends each distinct IBAN once). 10 % empty, 20 % one digit off, a third in print form.
 */
function ibanCell(i: number): string {
  if (i % 10 === 6) return '';
  const iban = austrianIban(i);
  const typed = i % 10 === 4 || i % 10 === 9 ? `${iban.slice(0, -1)}${(Number(iban.at(-1)) + 1) % 10}` : iban;
  return i % 3 === 0 ? typed.replace(/(.{4})(?!$)/g, '$1 ') : typed;
}

/** A supplier list: 10 % empty IBAN cells, 20 % invalid, quoted names with the delimiter in them. */
async function generate(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('supplier_id;name;iban;city\n');
  for (let i = 1; i <= rows; i++) {
    const line = `${i};"Supplier ${i}; GmbH";${ibanCell(i)};Berlin\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

interface Run {
  seconds: number;
  peakRssMb: number;
  cpuSeconds: number;
}

function runBatch(input: string, output: string, env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, ['bin/mod97.js', 'batch', input, '--out', output, '--force'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let peakMib = 0;
  let cpuMs = 0;
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.resume();
  // VmHWM is the kernel's own high-water mark of the resident set; read until the process ends.
  const poll = setInterval(() => {
    try {
      peakMib = Math.max(peakMib, residentMib(child.pid!, 'VmHWM'));
      cpuMs = cpuMsOf(`/proc/${child.pid}/stat`);
    } catch {
      /* exited */
    }
  }, 20);
  const started = performance.now();
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      clearInterval(poll);
      if (code !== 0) return reject(new Error(`mod97 batch exited ${code}: ${stderr}`));
      resolve({
        seconds: (performance.now() - started) / 1000,
        peakRssMb: peakMib,
        cpuSeconds: cpuMs / 1000,
      });
    }),
  );
}

const dir = mkdtempSync(join(tmpdir(), 'mod97-cli-bench-'));
const databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
buildBundles();
const target = await startTarget(SERVER, { MOD97_DATABASE_URL: databaseUrl });
const results: { size: number; bytes: number; run: Run; serviceCpuSeconds: number; capped: Run }[] = [];
const HEAP_CAP_MB = 40;
const load = loadavg()[0]!.toFixed(1);
try {
  const [key] = await seedKeys(databaseUrl, 1);
  const env = { MOD97_URL: target.url, MOD97_API_KEY: key! };
  for (const size of SIZES) {
    const input = join(dir, `suppliers-${size}.csv`);
    await generate(input, size);
    if (size === SIZES[0]) await runBatch(input, join(dir, 'warm.csv'), env); // warm-up of the service
    const serviceCpuBefore = target.cpuMs();
    const run = await runBatch(input, join(dir, `out-${size}.csv`), env);
    const serviceCpuSeconds = (target.cpuMs() - serviceCpuBefore) / 1000;
    // the same run with V8's old space capped: it completes when the command's heap does not grow with the file
    const capped = await runBatch(input, join(dir, `capped-${size}.csv`), {
      ...env,
      NODE_OPTIONS: `--max-old-space-size=${HEAP_CAP_MB}`,
    });
    results.push({ size, bytes: statSync(input).size, run, serviceCpuSeconds, capped });
    console.log(
      `${size} rows: ${Math.round(size / run.seconds)} rows/s, ${run.seconds.toFixed(2)} s, peak RSS ${run.peakRssMb.toFixed(0)} MB`,
    );
    rmSync(input);
  }
} finally {
  await target.stop();
  rmSync(dir, { recursive: true, force: true });
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
writeSection(
  'cli-batch',
  `## Command line: \`mod97 batch\` (\`bench/cli-batch.ts\`)

Generated ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`node --import tsx bench/cli-batch.ts\`.
\`mod97 batch FILE --out OUT\` as a user runs it (\`bin/mod97.js\`, a child process running the bundle \`dist/cli.js\`) against
\`npm start\`'s service in its own process (SQLite file) on the same machine (${cpus()[0]?.model ?? '?'}, ${cpus().length} cores, Node ${process.version}),
with a key whose quota never runs out, so every batch is a full one of 50 IBANs (the size whose answer the service keeps for a retry). The file is \`;\`-separated with a quoted name
holding the delimiter; 10 % of the IBAN cells are empty (not sent), 20 % of the IBANs are invalid. Each size is run
once (after one warm-up run of the smallest file), then once more with the heap capped. "peak RSS" is the command's VmHWM (the kernel's high-water mark); "CPU" is its user +
system time, "service CPU" the service process's. The machine was shared: load average ${load} at the start, so
the CPU seconds are the steadier figures ("rows per CPU s": rows over command + service CPU, what two idle cores
would come near); the wall time includes the command's start-up.
Batches are sent one at a time, by design: a batch is only sent once the one before it is written, so a refusal
never comes after a charged batch whose rows could not be written.

| rows | file | rows/s | wall s | command CPU s | service CPU s | rows per CPU s | peak RSS MB | peak RSS MB, heap capped at ${HEAP_CAP_MB} MB |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${results
  .map(
    ({ size, bytes, run, serviceCpuSeconds, capped }) =>
      `| ${fmt(size)} | ${(bytes / 1e6).toFixed(1)} MB | ${fmt(size / run.seconds)} | ${run.seconds.toFixed(2)} | ${run.cpuSeconds.toFixed(2)} | ${serviceCpuSeconds.toFixed(2)} | ${fmt(size / (run.cpuSeconds + serviceCpuSeconds))} | ${run.peakRssMb.toFixed(0)} | ${capped.peakRssMb.toFixed(0)} |`,
  )
  .join('\n')}

Most of the resident set is Node and the loaded code (about 120 MB before the first row). Every supplier has an
IBAN of its own here, so every IBAN is sent: a file whose IBANs repeat costs less. Uncapped, the peak creeps up with
the file because V8 lets its heap grow while there is garbage to collect later. With the old space capped at
${HEAP_CAP_MB} MB every size completes: the command holds one batch of rows at a time, and of the rest of the file
only the last row of each distinct IBAN, 12 bytes a slot in typed arrays outside the heap (\`src/cli/last-rows.ts\`;
kept in a Map of strings, a million distinct IBANs did not fit under this cap). That table is 24 MB at a million
IBANs; the rest of the capped peak's rise with the file was not taken apart.`,
);
