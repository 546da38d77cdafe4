/**
 * What an operator reads at start (README, "Operations"): one line of the settings in force and a
 * warning for each risky default, so that a forgotten variable shows in the first lines of the log.
 */
import type { Provenance } from '../data/types.ts';
import type { Services } from '../services.ts';

const STALE_DAYS = 90;
const DAY_MS = 86_400_000;

interface StartupLog {
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
}

export interface StartupReport {
  settings: {
    engine: 'sqlite' | 'postgres';
    public_url: string;
    trusted_proxies: readonly string[];
    rails_on: string[];
    data: { name: string; as_of: string | null }[];
  };
  warnings: { setting: string; message: string }[];
}

export function startupReport(services: Services): StartupReport {
  const { config, rails, data, clock } = services;
  const sources = data.provenance().map(({ name, as_of }) => ({ name, as_of }));
  const settings: StartupReport['settings'] = {
    engine: config.databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite',
    public_url: config.publicUrl,
    trusted_proxies: config.trustProxy,
    rails_on: [...(rails.x402 ? ['x402'] : []), ...(rails.card ? ['card'] : [])],
    data: sources,
  };
  const warnings: StartupReport['warnings'] = [];
  if (config.keyPepper === null)
    warnings.push({
      setting: 'MOD97_KEY_PEPPER',
      message:
        'MOD97_KEY_PEPPER is not set: the pepper that hashes keys is kept in the database itself, so a copy of the database is enough to test guessed keys offline. Set it (32 random bytes, hex) on a new install; an existing one must keep the pepper its keys were made with.',
    });
  if (!config.publicUrlSet)
    warnings.push({
      setting: 'MOD97_PUBLIC_URL',
      message: `MOD97_PUBLIC_URL is not set: links in answers, mails and /llms.txt point at ${config.publicUrl}. Set it to the address callers use.`,
    });
  warnings.push(...staleDataWarnings(data.provenance(), clock()), ...registerWarnings(data.provenance()));
  return { settings, warnings };
}

/**
 * The EPC register of SEPA participants is never shipped (its terms allow redistribution for
 * non-commercial purposes only, docs/data-sources.md): until the operator imports it, `sepa`
 * answers per country, not per bank, and the first lines of the log say so with the command.
 */
export function registerWarnings(sources: Provenance[]): StartupReport['warnings'] {
  if (sources.some((s) => s.updatedBy === 'epc-register')) return [];
  return [
    {
      setting: 'epc_register',
      message:
        'The EPC register of SEPA participants is not imported, so `sepa` answers per country, not per bank. Run `mod97 data update epc-register` (or `mod97 data import epc-register FILE`); its terms allow non-commercial redistribution only, so mod97 does not ship it.',
    },
  ];
}

const named = (sources: Provenance[]) => sources.map((s) => `${s.name} (${s.as_of})`).join(', ');

/**
 * Data past 90 days, in two warnings an operator can act on: what `mod97 data update` refreshes
 * (with the command that does it), and what only a newer release of mod97 brings. Undated
 * sources are never stale: nothing says how old they are.
 */
export function staleDataWarnings(sources: Provenance[], now: number): StartupReport['warnings'] {
  const staleBefore = now - STALE_DAYS * DAY_MS;
  const stale = sources.filter((s) => s.as_of !== null && Date.parse(s.as_of) < staleBefore);
  const updatable = stale.filter((s) => s.updatedBy !== undefined);
  const shipped = stale.filter((s) => s.updatedBy === undefined);
  const warnings: StartupReport['warnings'] = [];
  if (updatable.length > 0) {
    const kinds = [...new Set(updatable.map((s) => s.updatedBy))].join(' ');
    warnings.push({
      setting: 'data',
      message: `Reference data older than ${STALE_DAYS} days: ${named(updatable)}. Run \`mod97 data update ${kinds}\`, or set MOD97_DATA_REFRESH=daily.`,
    });
  }
  if (shipped.length > 0)
    warnings.push({
      setting: 'release_data',
      message: `Data shipped with this release of mod97 is older than ${STALE_DAYS} days: ${named(shipped)}. Update mod97 to a newer release for newer copies.`,
    });
  return warnings;
}

const listed = (items: readonly string[]) => (items.length > 0 ? items.join(' ') : 'none');

/** The settings line, then one warning line per risky default. */
export function logStartup(log: StartupLog, services: Services): StartupReport {
  const report = startupReport(services);
  const { settings } = report;
  const dates = settings.data.map((d) => `${d.name} ${d.as_of ?? 'undated'}`).join(', ');
  log.info(
    { component: 'startup', ...settings },
    `mod97 settings: engine ${settings.engine}, public URL ${settings.public_url}, trusted proxies ${listed(settings.trusted_proxies)}, rails on ${listed(settings.rails_on)}, data ${dates}`,
  );
  for (const warning of report.warnings) log.warn({ component: 'startup', setting: warning.setting }, warning.message);
  return report;
}
