/** The sections of docs/benchmarks.md, each between its markers: the load section's table, and the writer every benchmark uses. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Figures } from './load.ts';

const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

export interface Row {
  name: string;
  figures: Figures | null;
  /** Why a row has no figures (e.g. no PostgreSQL configured). */
  missing?: string;
  note?: string;
  /** A different request from the baseline's: no ratio to it. */
  noRatio?: boolean;
}

export function machine(postgresVersion: string | null): string {
  const version = (pkg: string) => {
    try {
      return JSON.parse(
        readFileSync(fileURLToPath(new URL(`../node_modules/${pkg}/package.json`, import.meta.url)), 'utf8'),
      ).version as string;
    } catch {
      return '?';
    }
  };
  const cores = cpus();
  const kernel = (() => {
    try {
      return execFileSync('uname', ['-r']).toString().trim();
    } catch {
      return '?';
    }
  })();
  return [
    `- Machine: ${cores[0]?.model ?? '?'}, ${cores.length} cores, Linux ${kernel}`,
    `- Node ${process.version}; fastify ${version('fastify')}, better-sqlite3 ${version('better-sqlite3')}, pg ${version('pg')}, prom-client ${version('prom-client')}, autocannon ${version('autocannon')}${wrkVersion()}`,
    `- ${postgresVersion ?? 'PostgreSQL: not configured'}`,
  ].join('\n');
}

export function table(rows: Row[], baseline: number): string {
  const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
  const lines = [
    '| target | req/s | p50 ms | p99 ms | vs baseline | server CPU µs/req | failed |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    if (!r.figures) {
      lines.push(`| ${r.name} | – | – | – | – | – | ${r.missing ?? ''} |`);
      continue;
    }
    const f = r.figures;
    lines.push(
      `| ${r.name}${r.note ? ` (${r.note})` : ''} | ${fmt(f.reqPerSec)} | ${f.p50} | ${f.p99} | ${r.noRatio ? '–' : `${Math.round((f.reqPerSec / baseline) * 100)} %`} | ${f.cpuUsPerReq === null ? '–' : fmt(f.cpuUsPerReq)} | ${f.failures} |`,
    );
  }
  return lines.join('\n');
}

/**
 * Writes `body` as the section `name` of docs/benchmarks.md, between its markers
 * (`<!-- name:start -->`, `<!-- name:end -->`), appended when it has none; the rest of the file is
 * left alone. Every benchmark writes its figures through this.
 */
export function writeSection(name: string, body: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const current = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n';
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  writeFileSync(
    DOC,
    from !== -1 && to > from
      ? current.slice(0, from) + section + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n${section}\n`,
  );
}

function wrkVersion(): string {
  try {
    return `, ${
      execFileSync('wrk', ['--version'], { stdio: ['ignore', 'pipe', 'pipe'] })
        .toString()
        .split(' [')[0]
    }`;
  } catch (err) {
    // wrk prints its version and exits 1.
    const out = (err as { stdout?: Buffer }).stdout?.toString() ?? '';
    return out ? `, ${out.split(' [')[0]}` : '';
  }
}
