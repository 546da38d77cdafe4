/**
 * The data plane a service runs on. An import by `mod97 data import|update`, from any process,
 * lands in the store; every running process notices it on its next poll of the datasets' list
 * (metadata only, no records) and builds a whole new snapshot beside the one in use, then swaps
 * one reference. A request holds one snapshot for all its lookups, so it never sees half of
 * one dataset and half of another load.
 */
import type { DataUrls } from '../config.ts';
import type { DatasetStore, SettingStore } from '../store/types.ts';
import { type UpdateReport, updateDatasets } from './download.ts';
import { workerFetch } from './update-in-worker.ts';
import { type DataPlane, type DataPlaneOptions, datasetsSignature, loadDataSnapshot, sourcesOf } from './snapshot.ts';
import type { Provenance } from './types.ts';
import { messageOf } from '../thrown.ts';

/** How often each process looks for an import made elsewhere. */
const DATA_POLL_MS = 3_000;
/** With MOD97_DATA_REFRESH=daily: how often a process checks whether the daily update is due. */
const UPDATE_CHECK_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The setting that records the last scheduled update, so that of many processes one runs it a day. */
export const LAST_UPDATE_SETTING = 'data_update_last_run';

export interface DataLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** What /readyz shows of the data: which load answers, and how the last checks and update went. */
export interface DataStatus {
  data_version: string;
  loaded_at: string;
  refresh: 'daily' | 'off';
  /** The last look for imports made elsewhere; `error` when the store could not be read. */
  last_check: { at: string; ok: boolean; error?: string } | null;
  /** The last scheduled update; `failures` names each download or import that changed nothing. */
  last_update: { at: string; ok: boolean; failures: string[] } | null;
}

export async function loadDataPlane(store: DatasetStore, opts: DataPlaneOptions = {}): Promise<LiveDataPlane> {
  return LiveDataPlane.load(store, opts);
}

export class LiveDataPlane implements DataPlane {
  private timers: NodeJS.Timeout[] = [];
  private reloading: Promise<boolean> | null = null;
  /** The reload that follows the running one, shared by the calls made while it runs. */
  private nextReload: Promise<boolean> | null = null;
  private firstLoad: Promise<void> | null = null;
  private current: DataPlane | null = null;
  private signature = '';
  private loadedAt = 0;
  private lastCheck: DataStatus['last_check'] = null;
  private lastUpdate: DataStatus['last_update'] = null;
  private refreshMode: DataStatus['refresh'] = 'off';

  private constructor(
    private readonly store: DatasetStore,
    private readonly opts: DataPlaneOptions,
    /** The sources the first load will read, named before it (the settings line at start). */
    private readonly sourcesBeforeLoad: Provenance[],
  ) {}

  /**
   * A plane that loads the data on its first `ready()`, not now: the server answers /healthz
   * without it, and neither spends the load's time nor holds its memory until a call needs it.
   * Only the datasets' list (metadata, no records) is read now.
   */
  static async deferred(store: DatasetStore, opts: DataPlaneOptions = {}): Promise<LiveDataPlane> {
    const sources = sourcesOf(await store.listDatasets(), (opts.clock ?? Date.now)());
    return new LiveDataPlane(store, opts, sources);
  }

  /** A plane with the data loaded now. */
  static async load(store: DatasetStore, opts: DataPlaneOptions = {}): Promise<LiveDataPlane> {
    const plane = await LiveDataPlane.deferred(store, opts);
    await plane.ready();
    return plane;
  }

  /** True once the data is loaded: every lookup below may then be called. */
  get loaded(): boolean {
    return this.current !== null;
  }

  /** Loads the data on the first call; later calls share that load. A failed first load is tried again on the next call. */
  ready(): Promise<void> {
    if (!this.firstLoad) {
      this.firstLoad = this.reloadOnce().then(() => undefined);
      this.firstLoad.catch(() => {
        this.firstLoad = null;
      });
    }
    return this.firstLoad;
  }

  /** The load in use now: take it once per request when several lookups must agree. */
  snapshot(): DataPlane {
    if (this.current) return this.current;
    throw new Error('reference data read before it was loaded: await ready() first');
  }

  bankForIban: DataPlane['bankForIban'] = (cc, bank, branch) => this.snapshot().bankForIban(cc, bank, branch);
  sepa: DataPlane['sepa'] = (cc, bic) => this.snapshot().sepa(cc, bic);
  clearing: DataPlane['clearing'] = (iid) => this.snapshot().clearing(iid);
  clearingSummary: DataPlane['clearingSummary'] = (iid) => this.snapshot().clearingSummary(iid);
  bic: DataPlane['bic'] = (code) => this.snapshot().bic(code);
  checkBicFormat: DataPlane['checkBicFormat'] = (code) => this.snapshot().checkBicFormat(code);
  compliance: DataPlane['compliance'] = (query) => this.snapshot().compliance(query);
  germanCheckMethod: DataPlane['germanCheckMethod'] = (blz) => this.snapshot().germanCheckMethod(blz);
  germanIbanRule: DataPlane['germanIbanRule'] = (blz) => this.snapshot().germanIbanRule(blz);
  bicsForBank: DataPlane['bicsForBank'] = (cc, bank, branch) => this.snapshot().bicsForBank(cc, bank, branch);
  /** The loaded data's sources; before the first load, those it will read. */
  provenance: DataPlane['provenance'] = () =>
    this.current ? this.current.provenance() : this.sourcesBeforeLoad.map((p) => ({ ...p }));
  coverage: DataPlane['coverage'] = () => this.snapshot().coverage();
  dataVersion: DataPlane['dataVersion'] = () => this.snapshot().dataVersion();

  /**
   * Reloads when the stored datasets differ from the loaded ones; true when a new load is in
   * use. A failed reload keeps the current one. A reload already running may have read the
   * store before the caller's change (an import), so calls made meanwhile share one more
   * reload, after it.
   */
  refresh(): Promise<boolean> {
    // Before the first load there is nothing to replace: that load reads what is stored then.
    return this.current ? this.reloadOnce() : Promise.resolve(false);
  }

  private reloadOnce(): Promise<boolean> {
    if (!this.reloading) return this.startReload();
    this.nextReload ??= this.reloading
      .catch(() => false)
      .then((earlier) => {
        this.nextReload = null;
        return this.startReload().then((now) => earlier || now);
      });
    return this.nextReload;
  }

  private startReload(): Promise<boolean> {
    const run: Promise<boolean> = this.reload().finally(() => {
      if (this.reloading === run) this.reloading = null;
    });
    this.reloading = run;
    return run;
  }

  private async reload(): Promise<boolean> {
    const now = this.now();
    try {
      const signature = datasetsSignature(await this.store.listDatasets());
      let swapped = false;
      if (!this.current || signature !== this.signature) {
        const next = await loadDataSnapshot(this.store, this.opts);
        this.current = next;
        this.signature = signature;
        this.loadedAt = now;
        swapped = true;
      }
      this.lastCheck = { at: iso(now), ok: true };
      return swapped;
    } catch (err) {
      this.lastCheck = { at: iso(now), ok: false, error: messageOf(err) };
      throw err;
    }
  }

  /** Polls the store for imports every `intervalMs`; the timer never keeps the process alive. */
  watch(log: DataLog, intervalMs = DATA_POLL_MS): void {
    const tick = () =>
      this.refresh().then(
        (swapped) => swapped && log.info({ data_version: this.dataVersion() }, 'reference data reloaded'),
        (err) => log.warn({ err: messageOf(err) }, 'reference data: reload failed, the loaded data stays'),
      );
    this.timers.push(setInterval(tick, intervalMs).unref());
  }

  /**
   * MOD97_DATA_REFRESH=daily: downloads and imports every kind once a day (one process of many
   * does it, by a mark in the store), then reloads. A failed download changes nothing.
   */
  scheduleDailyUpdate(settings: SettingStore, urls: DataUrls, log: DataLog): void {
    this.refreshMode = 'daily';
    const due = async () => {
      const now = this.now();
      const last = Number((await settings.getSetting(LAST_UPDATE_SETTING)) ?? 0);
      if (now - last < DAY_MS) return;
      await settings.setSetting(LAST_UPDATE_SETTING, String(now));
      await this.runUpdate(urls, log);
    };
    const tick = () => void due().catch((err) => log.warn({ err: messageOf(err) }, 'data update: not run'));
    this.timers.push(setTimeout(tick, 0).unref(), setInterval(tick, UPDATE_CHECK_MS).unref());
  }

  /**
   * One update of every kind now; what failed is logged and kept for /readyz. Files are
   * downloaded and parsed in a worker thread with its own heap limit, so that no file can stall
   * or exhaust the thread answering requests; the checks before storing (no emptying, no
   * halving) hold as for the command line, without --force.
   */
  async runUpdate(urls: DataUrls, log: DataLog, maxBytes?: number): Promise<UpdateReport> {
    const worker = workerFetch();
    let report: UpdateReport;
    try {
      report = await updateDatasets(this.store, undefined, urls, () => this.now(), {
        fetchParsed: worker.fetchParsed,
        maxBytes,
      });
    } finally {
      await worker.close();
    }
    for (const line of report.updated) log.info({}, `data update: ${line}`);
    for (const line of report.failures) log.warn({}, `data update failed, nothing changed: ${line}`);
    this.lastUpdate = { at: iso(this.now()), ok: report.failures.length === 0, failures: report.failures };
    await this.refresh().catch(() => false);
    return report;
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  status(): DataStatus {
    return {
      data_version: this.dataVersion(),
      loaded_at: iso(this.loadedAt),
      refresh: this.refreshMode,
      last_check: this.lastCheck,
      last_update: this.lastUpdate,
    };
  }

  private now(): number {
    return (this.opts.clock ?? Date.now)();
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();
