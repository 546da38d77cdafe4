/** Everything a route needs, built once at start-up and passed in (no globals). */
import { randomBytes } from 'node:crypto';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import { type DataLog, type DataPlaneOptions, LiveDataPlane } from './data/index.ts';
import { createDescribe, type Describe } from './describe.ts';
import { createNetworkResolver, type NetworkResolver } from './http/network.ts';
import { CreationAlert } from './keys/alert.ts';
import { EmailKeys } from './keys/email.ts';
import { checkPepper } from './keys/secret.ts';
import { KeyService } from './keys/service.ts';
import { MailboxVerification } from './keys/verification.ts';
import { componentLog, relayLog, type RelayLog } from './mail/log.ts';
import { isStorageUnavailable } from './store/unavailable.ts';
import { causeOf, codeOf, messageOf } from './thrown.ts';
import { createMxChecker } from './mail/mx.ts';
import { createMailer, type Mailer } from './mail/sender.ts';
import type { CardRail } from './payments/stripe/index.ts';
import type { X402Rail } from './payments/x402/index.ts';
import type { Rails } from './payments/offers.ts';
import { DailyUsage } from './quota/daily.ts';
import { Meter } from './quota/meter.ts';
import type { Store } from './store/types.ts';

export interface Services {
  config: Config;
  store: Store;
  clock: Clock;
  keys: KeyService;
  meter: Meter;
  alert: CreationAlert;
  rails: Rails;
  /** x402 pay-per-call; null unless MOD97_X402_FACILITATOR_URL is set. */
  x402: X402Rail | null;
  /** Stripe Checkout and webhooks; null unless STRIPE_SECRET_KEY is set. */
  card: CardRail | null;
  /** Bank directories, clearing, sanctions and country lists, loaded on the first call that needs them and reloaded on import. */
  data: LiveDataPlane;
  describe: Describe;
  /** Verification mail (SMTP or the outbox folder); closed with the app. */
  mailer: Mailer;
  /** Generate with an address, and claim by mailed code. */
  emailKeys: EmailKeys;
  /** Where the mail code logs; buildApp points it at the app's logger. */
  /** The log of the service's own parts (mail, daily usage, network); src/app.ts points it at its logger. */
  serviceLog: RelayLog;
  /** Charged calls per key and day, for the usage chart (statistics, written in batches). */
  daily: DailyUsage;
  networkOf: NetworkResolver;
}

/**
 * `dataOptions`: where the build's compact copy of the bundled data is (the server passes it; see
 * src/data/compact.ts); without it, the bundled files are indexed at the first load.
 */
export async function buildServices(
  config: Config,
  store: Store,
  clock: Clock,
  dataOptions: Pick<DataPlaneOptions, 'builtData'> = {},
): Promise<Services> {
  // Without MOD97_KEY_PEPPER the pepper is generated once and kept in the database
  // (README, "Configuration"); every process sharing that database then agrees on it.
  const pepper = config.keyPepper ?? (await store.settingOrInit('key_pepper', randomBytes(32).toString('hex')));
  // A different pepper would turn every key into a 401: the start stops instead, saying why.
  await checkPepper(store, pepper, config.keyPepper !== null);
  const alert = new CreationAlert(store, clock);
  const keys = new KeyService(store, clock, pepper, alert);
  const data = await LiveDataPlane.deferred(store, { clock, ...dataOptions });
  const { stripe } = config;
  // The payment SDKs (viem above all) take about a second to import: a service whose rails are
  // off never loads them.
  const x402Sdk = config.x402 ? await import('./payments/x402/index.ts') : null;
  const x402 = config.x402 && x402Sdk ? x402Sdk.readX402Config(config.x402) : null;
  const cardSdk = stripe ? await import('./payments/stripe/index.ts') : null;
  // The app's root logger once it exists (src/app.ts): each line below names its one component.
  const serviceLog = relayLog();
  const mailLog = componentLog(serviceLog, 'mail');
  const daily = new DailyUsage(store, clock, (err) =>
    // A store outage is expected (a warn line without a stack, docs/security.md); anything else is a defect.
    isStorageUnavailable(err)
      ? serviceLog.warn(
          { component: 'daily', error: 'storage_unavailable', cause: codeOf(causeOf(err)) },
          `daily usage not written: ${messageOf(err)}`,
        )
      : serviceLog.error({ component: 'daily', err }, 'daily usage not written'),
  );
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: config.outboxDir }, mailLog);
  const mx = createMxChecker({ servers: config.dnsServers, enabled: config.mxCheck }, mailLog);
  const verification = new MailboxVerification(store, clock, (value) => keys.hash(value), mailer);
  return {
    config,
    store,
    clock,
    alert,
    keys,
    meter: new Meter(store, clock, alert),
    rails: { x402: x402 !== null, card: stripe !== null },
    x402: x402Sdk && x402 && x402Sdk.createX402Rail(x402, { store, clock }),
    card: cardSdk && stripe && cardSdk.createCardRail(stripe, { store, keys, clock, config }),
    data,
    describe: createDescribe(data),
    mailer,
    serviceLog,
    daily,
    emailKeys: new EmailKeys({ store, clock, keys, alert, verification, mx }),
    networkOf: createNetworkResolver(config.trustProxy, (peer) =>
      serviceLog.warn(
        { component: 'network', peer },
        'X-Forwarded-For arrives from a peer that is not a trusted proxy, and is ignored: if the service is behind a proxy, set MOD97_TRUST_PROXY to its address, or every caller counts as one network (shown once)',
      ),
    ),
  };
}

/**
 * Every process polls the store for imports made by any other (the CLI, another instance) and
 * swaps in the new data; with MOD97_DATA_REFRESH=daily it also downloads the publishers' files.
 */
export function startDataRefresh(services: Services, log: DataLog): void {
  services.data.watch(log);
  if (services.config.dataRefresh === 'daily')
    services.data.scheduleDailyUpdate(services.store, services.config.dataUrls, log);
}
