import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadDataPlane } from '../../src/data/index.ts';
import { ImportError, importFile, importerFor } from '../../src/data/importers/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';

const bytes = (text: string) => Buffer.from(text, 'latin1');
const SDN = '906,"HAVIN BANK LIMITED",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"SWIFT/BIC HAVIGB2L."\r\n';
const EPC =
  '"Country","ParticipantName","Address","City","BIC","Readiness Date","Scheme Leaving Date","Scheme Options"\n"AUSTRIA","Bank A","Str. 1","Wien","AAAAATWWXXX","2020-01-01","",""\n';
const SIX_HEADER =
  'IID/QR-IID;Valid on;Concatenation;New IID/QR-IID;SIC IID;Headquarters;IID type;QR-IID allocation;Name of bank/institution;Street Name;Building Number;Post Code;Town Name;Country;BIC;SIC participation;RTGS customer payments, CHF;IP customer payments, CHF;euroSIC participation;LSV+/BDD, CHF;LSV+/BDD, EUR;202609011630349';
const sixRow = (iid: string, validOn: string) =>
  `${iid};${validOn};N;;00${iid}8;${iid};1;;Bank ${iid};Strasse;1;8000;Zürich;CH;;Y;Y;N;Y;Y;N`;

const refused = (kind: string, input: { bytes: Buffer; name: string }) =>
  assert.throws(
    () => importerFor(kind).parse(input),
    (e: unknown) => e instanceof ImportError && /carries no date.*; pass --as-of YYYY-MM-DD/.test(e.message),
    kind,
  );

test('a format with no date of its own needs --as-of: a local file is never dated by its modification time', () => {
  refused('ofac-sdn', { bytes: bytes(SDN), name: 'sdn.csv' });
  refused('epc-register', { bytes: bytes(EPC), name: 'SepaAdherence.csv' });
  refused('bundesbank-blz', {
    bytes: bytes(
      '"Bankleitzahl";"Merkmal";"Bezeichnung";"PLZ";"Ort";"BIC"\n"37040044";"1";"Commerzbank";"50447";"Köln";"COBADEFFXXX"\n',
    ),
    name: 'blz.csv',
  });
  refused('gleif-bic-lei', { bytes: bytes('LEI,BIC\n7LTWFZYICNSX8D621K86,DEUTDEFFXXX\n'), name: 'bic-lei.csv' });
  const given = importerFor('ofac-sdn').parse({ bytes: bytes(SDN), name: 'sdn.csv', asOf: '2024-05-03' });
  assert.deepEqual([given.asOf, given.asOfBasis], ['2024-05-03', 'operator']);
});

test('a date inside the file wins: SIX dates the file by its newest "Valid on" row', () => {
  const csv = [SIX_HEADER, sixRow('100', '2026-09-01'), sixRow('230', '2026-09-02')].join('\n');
  const parsed = importerFor('six-bankmaster').parse({
    bytes: Buffer.from(csv),
    name: 'bankmaster_V3.csv',
    asOf: '2020-01-01',
  });
  assert.deepEqual([parsed.asOf, parsed.asOfBasis], ['2026-09-02', 'file']);
});

test('data update may date a dateless file by its download, and every answer then says so', async () => {
  const store = openSqliteStore('sqlite::memory:');
  const download = { date: '2026-11-23', basis: 'last_modified' as const };
  const sdn = await importFile(
    store,
    'ofac-sdn',
    { bytes: bytes(SDN), name: 'https://example.test/sdn.csv', download },
    0,
    { force: true }, // a few entries replace the 162 bundled
  );
  assert.deepEqual([sdn.asOf, sdn.asOfBasis], ['2026-11-23', 'last_modified']);
  // the caveat is a field of its own, the source name stays the publisher's
  assert.equal(sdn.source, 'OFAC SDN list (sdn.csv)');
  assert.equal((await store.listDatasets()).find((m) => m.kind === 'ofac-sdn')?.asOfBasis, 'last_modified');
  await importFile(
    store,
    'epc-register',
    { bytes: bytes(EPC), name: 'SepaAdherence.csv', download: { date: '2026-11-21', basis: 'download_time' } },
    0,
  );
  const plane = await loadDataPlane(store);

  const lists = plane.compliance({ bic: 'HAVIGB2L' }).sanctions.lists;
  assert.deepEqual(lists, [
    {
      name: 'OFAC SDN',
      as_of: '2026-11-23',
      as_of_note: "as_of is the download's Last-Modified date; the file states no date",
    },
  ]);
  const source = plane.bic('AAAAATWW')?.sources.find((s) => s.name.startsWith('EPC'));
  assert.deepEqual(
    [source?.as_of, source?.as_of_note],
    ['2026-11-21', 'as_of is the day of download; neither the file nor the server states a date'],
  );
  const provenance = plane.provenance().find((p) => p.name === 'OFAC SDN list (sdn.csv)');
  assert.match(provenance?.note ?? '', /as_of is the download's Last-Modified date/);
});

test('a dataset dated by its file or by --as-of carries no caveat', async () => {
  const store = openSqliteStore('sqlite::memory:');
  await importFile(store, 'ofac-sdn', { bytes: bytes(SDN), name: 'sdn.csv', asOf: '2024-05-03' }, 0, { force: true });
  const plane = await loadDataPlane(store);
  assert.deepEqual(plane.compliance({ bic: 'HAVIGB2L' }).sanctions.lists, [{ name: 'OFAC SDN', as_of: '2024-05-03' }]);
});
