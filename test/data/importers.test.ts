import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32, deflateRawSync } from 'node:zlib';
import { loadDataPlane } from '../../src/data/index.ts';
import { ImportError, importFile, importerFor } from '../../src/data/importers/index.ts';
import type { SanctionRecord, SchemeParticipant } from '../../src/data/types.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';

const bytes = (text: string, encoding: BufferEncoding = 'utf8') => Buffer.from(text, encoding);
const pad = (s: string, n: number) => s.padEnd(n).slice(0, n);

/** One record of the Bundesbank fixed-width file, laid out as its Merkblatt describes. */
function blzLine(blz: string, merkmal: string, name: string, plz: string, city: string, bic: string): string {
  return (
    blz +
    merkmal +
    pad(name, 58) +
    pad(plz, 5) +
    pad(city, 35) +
    pad(name, 27) +
    '00000' +
    pad(bic, 11) +
    '09' +
    '000001' +
    'U' +
    '0' +
    '00000000' +
    '000000'
  );
}

test('the Bundesbank fixed-width file keeps banks (Merkmal 1) and reads Latin-1 names', () => {
  const file = [
    blzLine('10000000', '1', 'Bundesbank', '10591', 'Berlin', 'MARKDEF1100'),
    blzLine('10000000', '2', 'Bundesbank Filiale', '10591', 'Berlin', ''),
    blzLine('76050101', '1', 'Sparkasse Nürnberg', '90402', 'Nürnberg', 'SSKNDE77XXX'),
  ].join('\r\n');
  const parsed = importerFor('bundesbank-blz').parse({ bytes: bytes(file, 'latin1'), name: 'blz_2026_12_07_txt.txt' });
  assert.equal(parsed.records.length, 2);
  assert.deepEqual(parsed.records[1], {
    blz: '76050101',
    name: 'Sparkasse Nürnberg',
    postcode: '90402',
    city: 'Nürnberg',
    bic: 'SSKNDE77XXX',
    check_method: '09',
    iban_rule: '000000',
  });
  assert.equal(parsed.asOf, '2026-12-07', 'date taken from the file name');
});

test('the Bundesbank CSV form is read by its header', () => {
  const csv =
    '"Bankleitzahl";"Merkmal";"Bezeichnung";"PLZ";"Ort";"Kurzbezeichnung";"PAN";"BIC"\n"37040044";"1";"Commerzbank";"50447";"Köln";"Commerzbank Köln";"";"COBADEFFXXX"\n"37040044";"2";"Commerzbank";"50000";"Köln";"";"";""\n';
  const parsed = importerFor('bundesbank-blz').parse({ bytes: bytes(csv), name: 'blz.csv', asOf: '2026-12-07' });
  assert.deepEqual(parsed.records, [
    { blz: '37040044', name: 'Commerzbank', postcode: '50447', city: 'Köln', bic: 'COBADEFFXXX' },
  ]);
});

test('an imported BLZ file replaces the bundled German directory', async () => {
  const store = openSqliteStore('sqlite::memory:');
  const file = blzLine('37040044', '1', 'Commerzbank Test', '50447', 'Köln', 'COBADEFFXXX');
  // one bank where the bundled directory has thousands: taken only with --force
  await importFile(store, 'bundesbank-blz', { bytes: bytes(file, 'latin1'), name: 'blz.txt', asOf: '2026-12-07' }, 0, {
    force: true,
  });
  const plane = await loadDataPlane(store);
  assert.deepEqual(plane.bankForIban('DE', '37040044'), {
    bic: 'COBADEFFXXX',
    name: 'Commerzbank Test',
    city: 'Köln',
    source: 'Deutsche Bundesbank Bankleitzahlendatei',
    as_of: '2026-12-07',
  });
  assert.equal(plane.bankForIban('DE', '10000000'), null, 'codes absent from the imported file are gone');
});

test('a file with no date and no --as-of is refused with a hint', () => {
  assert.throws(
    () =>
      importerFor('ofac-sdn').parse({
        bytes: bytes('1,"X",-0- ,"IRAN",,,,,,,,"SWIFT/BIC ABCDIRTH"\n'),
        name: 'sdn.csv',
      }),
    (e: unknown) => e instanceof ImportError && /--as-of/.test(e.message),
  );
});

test('OFAC sdn.csv yields one record per SWIFT/BIC in the remarks, with its programs', () => {
  const csv =
    '906,"HAVIN BANK LIMITED",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"SWIFT/BIC HAVIGB2L; Website www.example.com."\r\n' +
    '7,"TWO CODES BANK",-0- ,"RUSSIA-EO14024] [IFSR",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"SWIFT/BIC ABCDRUMM; alt. SWIFT/BIC ABCDRUMM123."\r\n' +
    '8,"PERSON",-0- ,"SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 1970."\r\n\x1a';
  const parsed = importerFor('ofac-sdn').parse({ bytes: bytes(csv, 'latin1'), name: 'sdn.csv', asOf: '2024-05-03' });
  assert.deepEqual(
    (parsed.records as SanctionRecord[]).map((r) => r.bic),
    ['HAVIGB2L', 'ABCDRUMM', 'ABCDRUMM123'],
  );
  assert.deepEqual(parsed.records[1], {
    bic: 'ABCDRUMM',
    name: 'TWO CODES BANK',
    programs: ['RUSSIA-EO14024', 'IFSR'],
    reference: 'OFAC SDN ent_num 7',
  });
  assert.deepEqual([parsed.asOf, parsed.asOfBasis], ['2024-05-03', 'operator']);
});

const EPC_HEADER =
  '"Country","ParticipantName","Address","City","BIC","Readiness Date","Scheme Leaving Date","Scheme Options"\n';
const VOP_HEADER =
  '"Country","ParticipantName","Address","City","BIC","Status","Role","Readiness Date","Scheme Leaving Date","Scheme Options"\n';

test('an EPC register file is recognised by its name, or by --scheme, and stored per scheme', () => {
  const csv = `${EPC_HEADER}"AUSTRIA","Bank A","Str. 1","Wien","AAAAATWWXXX","2020-01-01","",""\n"AUSTRIA","Gone","","Wien","BBBBATWWXXX","2020-01-01","2024-01-01",""\n`;
  const epc = importerFor('epc-register');
  assert.equal(
    epc.parse({ bytes: bytes(csv), name: 'SepaInstAdherence.csv', asOf: '2025-09-08' }).kind,
    'epc-sct-inst',
  );
  assert.equal(
    epc.parse({ bytes: bytes(csv), name: 'https://x/participants_export/sdd_b2b/sdd_b2b.csv', asOf: '2025-09-08' })
      .kind,
    'epc-sdd-b2b',
  );
  const sct = epc.parse({ bytes: bytes(csv), name: 'register.csv', scheme: 'sct', asOf: '2025-09-08' });
  assert.equal(sct.kind, 'epc-sct');
  assert.deepEqual(
    (sct.records as SchemeParticipant[]).map((r) => [r.bic, r.readiness_date, r.leaving_date]),
    [
      ['AAAAATWWXXX', '2020-01-01', null],
      ['BBBBATWWXXX', '2020-01-01', '2024-01-01'],
    ],
    'a participant that left is kept with its leaving date: the answer decides by the day asked',
  );
  assert.throws(() => epc.parse({ bytes: bytes(csv), name: 'register.csv', asOf: '2025-09-08' }), /--scheme/);
});

test('the VOP register is read by its column names, Status and Role included', () => {
  // Status and Role sit between BIC and Readiness Date: a reader by position would take the status for a date
  const csv = `${VOP_HEADER}"AUSTRIA","Bank A","Str. 1","Wien","AAAAATWWXXX","Ready for operations","Responding PSP;Requesting PSP","2025-10-09","",""\n"AUSTRIA","Bank B","","Linz","BBBBATWWXXX","Pending EDS registration","Requesting PSP","","",""\n`;
  const epc = importerFor('epc-register');
  for (const name of ['VOPAdherence.csv', 'https://x/participants_export/vop/vop.csv']) {
    const vop = epc.parse({ bytes: bytes(csv), name, asOf: '2025-09-08' });
    assert.equal(vop.kind, 'epc-vop', name);
    const records = vop.records as SchemeParticipant[];
    assert.deepEqual(records[0], {
      bic: 'AAAAATWWXXX',
      name: 'Bank A',
      address: 'Str. 1',
      city: 'Wien',
      readiness_date: '2025-10-09',
      leaving_date: null,
      status: 'Ready for operations',
      roles: ['Requesting PSP', 'Responding PSP'],
    });
    assert.deepEqual(
      [records[1]?.status, records[1]?.roles, records[1]?.readiness_date],
      ['Pending EDS registration', ['Requesting PSP'], null],
    );
  }
  assert.equal(epc.parse({ bytes: bytes(csv), name: 'x.csv', scheme: 'vop', asOf: '2025-09-08' }).kind, 'epc-vop');
  assert.throws(
    () =>
      epc.parse({
        bytes: bytes(`${EPC_HEADER}"AUSTRIA","A","","","AAAAATWWXXX","","",""\n`),
        name: 'VOPAdherence.csv',
        asOf: '2025-09-08',
      }),
    (e: Error) => e instanceof ImportError && /needs BIC, ParticipantName, Status/.test(e.message),
    'a VOP file without its Status column is refused',
  );
  assert.throws(
    () => epc.parse({ bytes: bytes(csv), name: 'OctInstAdherence.csv', asOf: '2025-09-08' }),
    /reads only the EPC registers of SCT, SCT_INST, SDD_CORE, SDD_B2B, VOP/,
  );
  assert.throws(
    () =>
      epc.parse({
        bytes: bytes(`${EPC_HEADER}"AUSTRIA","A","","","AAAAATWWXXX","09/01/2020","",""\n`),
        name: 'SepaAdherence.csv',
        asOf: '2025-09-08',
      }),
    /AAAAATWWXXX: "Readiness Date" is "09\/01\/2020", not a date YYYY-MM-DD/,
  );
});

test('register dates are read on the day asked: a bank adheres from its readiness date until it leaves', async () => {
  const store = openSqliteStore('sqlite::memory:');
  const csv =
    EPC_HEADER +
    '"AUSTRIA","Staying","","Wien","AAAAATWWXXX","2020-01-01","",""\n' +
    '"AUSTRIA","Leaving","","Wien","BBBBATWWXXX","2020-01-01","2026-06-30",""\n' +
    '"AUSTRIA","Joining","","Wien","CCCCATWWXXX","2026-06-30","",""\n' +
    '"AUSTRIA","Left and rejoined","","Wien","DDDDATWWXXX","2025-05-19","2024-12-02",""\n';
  await importFile(store, 'epc-register', { bytes: bytes(csv), name: 'SepaAdherence.csv', asOf: '2026-01-05' }, 0);
  const on = async (day: string) => {
    const plane = await loadDataPlane(store, { clock: () => Date.parse(`${day}T12:00:00Z`) });
    return ['AAAAATWW', 'BBBBATWW', 'CCCCATWW', 'DDDDATWW'].map((b) => plane.sepa('AT', b).schemes.join());
  };
  assert.deepEqual(await on('2026-06-29'), ['SCT', 'SCT', '', 'SCT']);
  assert.deepEqual(await on('2026-06-30'), ['SCT', '', 'SCT', 'SCT']);
  const plane = await loadDataPlane(store);
  assert.equal(plane.sepa('AT', 'BBBBATWWXXX').basis, 'epc_register', 'a bank that left is still answered for');
  assert.equal(plane.sepa('AT', 'AAAAATWW').vop, null, 'no VOP register imported: nothing is said of VOP');
  assert.equal(plane.bic('AAAAATWW')?.city, 'Wien');
});

/** A one-file ZIP archive (deflated), as GLEIF serves its relationship file. */
function zipOf(name: string, content: Buffer): Buffer {
  const data = deflateRawSync(content);
  const fname = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt16LE(fname.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc32(content), 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fname.length, 28);
  const centralOffset = 30 + fname.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + fname.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fname, data, central, fname, end]);
}

test('the GLEIF BIC-LEI file is read plain or zipped, dated by the file name inside the archive', () => {
  const csv = bytes('LEI,BIC\n7LTWFZYICNSX8D621K86,DEUTDEFFXXX\nshort,DEUTDEFF\n');
  const gleif = importerFor('gleif-bic-lei');
  const plain = gleif.parse({ bytes: csv, name: 'bic-lei.csv', asOf: '2026-11-01' });
  assert.deepEqual(plain.records, [{ bic: 'DEUTDEFFXXX', lei: '7LTWFZYICNSX8D621K86' }]);
  const zipped = gleif.parse({ bytes: zipOf('BIC-LEI-20261101.csv', csv), name: 'download' });
  assert.deepEqual(zipped.records, plain.records);
  assert.equal(zipped.asOf, '2026-11-01');
});

test('a file in the wrong format is refused, not imported as empty', () => {
  const junk = bytes('<html>not found</html>');
  for (const kind of ['six-bankmaster', 'bundesbank-blz', 'ofac-sdn', 'eu-fsf', 'gleif-bic-lei']) {
    assert.throws(() => importerFor(kind).parse({ bytes: junk, name: 'f', asOf: '2026-01-01' }), ImportError, kind);
  }
  assert.throws(
    () => importerFor('epc-register').parse({ bytes: junk, name: 'sct.csv', asOf: '2026-01-01' }),
    ImportError,
  );
  assert.throws(() => importerFor('nonsense'), /unknown data kind/);
});

test('the EU FSF CSV yields entities whose identification is a SWIFT/BIC, dated by the file', async () => {
  const header =
    'fileGenerationDate;Entity_LogicalId;Entity_EU_ReferenceNumber;Entity_Regulation_Programme;NameAlias_WholeName;Identification_Number;Identification_TypeCode;Identification_TypeDescription';
  const csv = [
    header,
    '2026-11-20T10:00:00;13;EU.123.45;RUS;Example Bank PJSC;;;',
    '2026-11-20T10:00:00;13;EU.123.45;RUS;;EXBK RU MM;swiftbic;SWIFT BIC',
    '2026-11-20T10:00:00;14;EU.9.1;IRN;Some Person;X1234567;passport;Passport',
  ].join('\n');
  const parsed = importerFor('eu-fsf').parse({ bytes: bytes(csv), name: 'fsf.csv' });
  assert.equal(parsed.asOf, '2026-11-20');
  assert.deepEqual(parsed.records, [
    { bic: 'EXBKRUMM', name: 'Example Bank PJSC', programs: ['RUS'], reference: 'EU FSF EU.123.45' },
  ]);
  const store = openSqliteStore('sqlite::memory:');
  await importFile(store, 'eu-fsf', { bytes: bytes(csv), name: 'fsf.csv' }, 0);
  const answer = (await loadDataPlane(store)).compliance({ bic: 'EXBKRUMMXXX' });
  assert.deepEqual(answer.sanctions.lists, [
    { name: 'OFAC SDN', as_of: '2024-05-03' },
    { name: 'EU financial sanctions', as_of: '2026-11-20' },
  ]);
  assert.equal(answer.sanctions.matches[0]?.reference, 'EU FSF EU.123.45');
  assert.equal(answer.level, 'high');
});
