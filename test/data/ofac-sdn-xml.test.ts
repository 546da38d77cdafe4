import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fetchAndParse } from '../../src/data/download.ts';
import { loadDataPlane } from '../../src/data/index.ts';
import { ImportError, importFile, importerFor } from '../../src/data/importers/index.ts';
import { SDN_XML_BOUNDS } from '../../src/data/importers/ofac-sdn-xml.ts';
import type { SanctionRecord } from '../../src/data/types.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { loopbackServer } from '../support/loopback.ts';
import { SHARED_DATA, skipUnlessShared } from '../support/shared-data.ts';

/** One DistinctParty of the Advanced Sanctions Data Model, with its primary name and features. */
function party(ref: string, names: string[], features: [typeId: string, value: string][]): string {
  const documented = names
    .map(
      (n, i) => `<DocumentedName ID="${ref}${i}" FixedRef="${ref}" DocNameStatusID="${i + 1}">
          <DocumentedNamePart><NamePartValue NamePartGroupID="1" ScriptID="215" ScriptStatusID="1" Acronym="false">${n}</NamePartValue></DocumentedNamePart>
        </DocumentedName>`,
    )
    .join('');
  return `<DistinctParty FixedRef="${ref}"><Comment/>
  <Profile ID="${ref}" PartySubTypeID="3">
    <Identity ID="9${ref}" FixedRef="${ref}" Primary="true" False="false">
      <Alias FixedRef="${ref}" AliasTypeID="1400" Primary="false" LowQuality="false">
        <DocumentedName ID="8${ref}" FixedRef="${ref}" DocNameStatusID="2"><DocumentedNamePart><NamePartValue NamePartGroupID="1" ScriptID="215">AKA OF ${ref}</NamePartValue></DocumentedNamePart></DocumentedName>
      </Alias>
      <Alias FixedRef="${ref}" AliasTypeID="1403" Primary="true" LowQuality="false">${documented}</Alias>
    </Identity>
    ${features.map(([type, value], i) => `<Feature ID="${ref}${i}" FeatureTypeID="${type}"><FeatureVersion ID="${ref}${i}" ReliabilityID="1"><Comment/><VersionDetail DetailTypeID="1432">${value}</VersionDetail></FeatureVersion><IdentityReference IdentityID="9${ref}" IdentityFeatureLinkTypeID="1"/></Feature>`).join('\n    ')}
  </Profile>
</DistinctParty>`;
}

function entry(profile: string, measures: [typeId: string, comment: string][]): string {
  return `<SanctionsEntry ID="5${profile}" ProfileID="${profile}" ListID="1550">
    <EntryEvent ID="5${profile}" EntryEventTypeID="1" LegalBasisID="1"><Date CalendarTypeID="1"><Year>2022</Year><Month>2</Month><Day>24</Day></Date><Comment/></EntryEvent>
    ${measures.map(([type, c], i) => `<SanctionsMeasure ID="5${profile}${i}" SanctionsTypeID="${type}"><Comment>${c}</Comment></SanctionsMeasure>`).join('')}
  </SanctionsEntry>`;
}

/** A small sdn_advanced.xml: a bank with two BICs, a person, a bank named in two scripts, a BIK decoy. */
const XML = `\uFEFF<?xml version="1.0" standalone="yes"?>
<Sanctions xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADVANCED_XML">
  <DateOfIssue><Year>2026</Year><Month>11</Month><Day>7</Day></DateOfIssue>
  <ReferenceValueSets>
    <FeatureTypeValues><FeatureType ID="8" FeatureTypeGroupID="1">Birthdate</FeatureType><FeatureType ID="1001" FeatureTypeGroupID="1">SWIFT/BIC</FeatureType><FeatureType ID="1002" FeatureTypeGroupID="1">BIK (RU)</FeatureType></FeatureTypeValues>
    <SanctionsTypeValues><SanctionsType ID="1">Program</SanctionsType><SanctionsType ID="2">Block</SanctionsType></SanctionsTypeValues>
  </ReferenceValueSets>
  <Locations/>
  <IDRegDocuments/>
  <DistinctParties>
    ${party(
      '26013',
      ['EXAMPLE BANK PJSC'],
      [
        ['1001', 'EXBKRUMM'],
        ['1001', ' exbk ru mm 123 '],
        ['1002', '044525000'],
        ['1001', 'not a bic'],
      ],
    )}
    ${party('7', ['DOE, John'], [['8', '1970']])}
    ${party('906', ['HAVIN BANK LIMITED', 'ХАВИН БАНК'], [['1001', 'HAVIGB2L']])}
  </DistinctParties>
  <ProfileRelationships/>
  <SanctionsEntries>
    ${entry('26013', [
      ['1', 'RUSSIA-EO14024'],
      ['1', 'IFSR'],
      ['2', 'Block'],
    ])}
    ${entry('7', [['1', 'SDGT']])}
    ${entry('906', [['1', 'CUBA']])}
  </SanctionsEntries>
</Sanctions>
`;

const bytes = (s: string) => Buffer.from(s, 'utf8');
const ofac = importerFor('ofac-sdn');

test('sdn_advanced.xml yields one record per SWIFT/BIC feature, with the primary name and programs', () => {
  const parsed = ofac.parse({ bytes: bytes(XML), name: 'sdn_advanced.xml' });
  assert.deepEqual(parsed.records as SanctionRecord[], [
    {
      bic: 'EXBKRUMM',
      name: 'EXAMPLE BANK PJSC',
      programs: ['RUSSIA-EO14024', 'IFSR'],
      reference: 'OFAC SDN ent_num 26013',
    },
    {
      bic: 'EXBKRUMM123',
      name: 'EXAMPLE BANK PJSC',
      programs: ['RUSSIA-EO14024', 'IFSR'],
      reference: 'OFAC SDN ent_num 26013',
    },
    { bic: 'HAVIGB2L', name: 'HAVIN BANK LIMITED', programs: ['CUBA'], reference: 'OFAC SDN ent_num 906' },
  ]);
  assert.equal(parsed.source, 'OFAC SDN list (sdn_advanced.xml)');
});

test('the XML is dated by its DateOfIssue, over --as-of and the download, and recognised whatever its name', () => {
  const input = {
    bytes: bytes(XML),
    name: 'https://example.test/download?id=1',
    asOf: '2020-01-01',
    download: { date: '2026-11-23', basis: 'last_modified' as const },
  };
  const parsed = ofac.parse(input);
  assert.deepEqual([parsed.asOf, parsed.asOfBasis], ['2026-11-07', 'file']);
});

test('an XML file that is not the advanced SDN model, or is cut short, is refused', () => {
  assert.throws(
    () =>
      ofac.parse({
        bytes: bytes('<?xml version="1.0"?><sdnList><sdnEntry/></sdnList>'),
        name: 'sdn.xml',
        asOf: '2026-01-01',
      }),
    (e: unknown) => e instanceof ImportError && /not OFAC sdn_advanced\.xml/.test(e.message),
  );
  assert.throws(
    () => ofac.parse({ bytes: bytes(XML.slice(0, XML.indexOf('</DistinctParties>'))), name: 'sdn_advanced.xml' }),
    (e: unknown) => e instanceof ImportError && /not well-formed/.test(e.message),
  );
  assert.throws(
    () => ofac.parse({ bytes: bytes('<Sanctions><DistinctParties/></Sanctions>'), name: 'x.xml', asOf: '2026-01-01' }),
    /no SWIFT\/BIC feature type/,
  );
});

test('an imported XML list flags its banks as sanctioned, by BIC8 for every office', async () => {
  const store = openSqliteStore('sqlite::memory:');
  await importFile(store, 'ofac-sdn', { bytes: bytes(XML), name: 'sdn_advanced.xml' }, 0, { force: true });
  const plane = await loadDataPlane(store);
  const a = plane.compliance({ bic: 'EXBKRUMMXXX' });
  assert.equal(a.level, 'high');
  assert.deepEqual(a.sanctions.lists, [{ name: 'OFAC SDN', as_of: '2026-11-07' }]);
  assert.equal(plane.compliance({ bic: 'HAVIGB2LXXX' }).sanctions.matches[0]?.reference, 'OFAC SDN ent_num 906');
  assert.equal(plane.compliance({ bic: 'DEUTDEFF' }).sanctions.matches.length, 0);
});

const REAL = 'ofac-sdn/sdn_advanced.xml';

test('the real sdn_advanced.xml imports with its own date and many BICs', { skip: skipUnlessShared(REAL) }, () => {
  const parsed = ofac.parse({ bytes: readFileSync(SHARED_DATA + REAL), name: 'sdn_advanced.xml' });
  assert.equal(parsed.asOfBasis, 'file');
  assert.match(parsed.asOf ?? 'undated', /^20\d{2}-\d{2}-\d{2}$/);
  const records = parsed.records as SanctionRecord[];
  assert.ok(records.length > 100, `${records.length} BICs`);
  assert.ok(records.every((r) => /^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(r.bic) && r.name && r.programs.length > 0));
});

/** The small file with `extra` put into its first DistinctParty, after the Profile. */
const withExtra = (extra: string): Buffer =>
  bytes(XML.replace('</Profile>\n</DistinctParty>', `</Profile>${extra}\n</DistinctParty>`));

/** ofac.parse's refusal of `file`, or a failed assertion naming what it yielded instead. */
function refusal(file: Buffer): string {
  try {
    const parsed = ofac.parse({ bytes: file, name: 'sdn_advanced.xml' });
    assert.fail(`imported ${parsed.records.length} records`);
  } catch (e) {
    assert.ok(e instanceof ImportError, String(e));
    return e.message;
  }
}

test('a value, an element or a party past any real one is refused, naming the file and the element (docs/api.md, "Data routes")', () => {
  const { text, depth, attributes, reference, perParty } = SDN_XML_BOUNDS;
  const long = 'A'.repeat(text + 1);
  assert.equal(
    refusal(bytes(XML.replace('>SWIFT/BIC<', `>SWIFT/BIC ${long}<`))),
    `sdn_advanced.xml is refused: <FeatureType> holds more than ${text} characters of text, more than any real sdn_advanced.xml; nothing changed`,
  );
  assert.match(
    refusal(bytes(XML.replace('>EXAMPLE BANK PJSC<', `>${long}<`))),
    /^sdn_advanced\.xml is refused: <NamePartValue> holds more than 4096 characters/,
  );
  // a name of many parts, each short
  const parts = '<DocumentedNamePart><NamePartValue>PART</NamePartValue></DocumentedNamePart>'.repeat(1000);
  assert.match(
    refusal(
      bytes(
        XML.replace(
          '<DocumentedNamePart><NamePartValue NamePartGroupID="1" ScriptID="215" ScriptStatusID="1" Acronym="false">EXAMPLE',
          `${parts}<DocumentedNamePart><NamePartValue>EXAMPLE`,
        ),
      ),
    ),
    /is refused: a <DocumentedName> is more than 4096 characters long/,
  );
  assert.match(
    refusal(withExtra(`${'<Deep>'.repeat(depth)}${'</Deep>'.repeat(depth)}`)),
    new RegExp(`is refused: <Deep> is nested more than ${depth} elements deep`),
  );
  const many = Array.from({ length: attributes + 1 }, (_, i) => `a${i}="1"`).join(' ');
  assert.match(
    refusal(withExtra(`<Wide ${many}/>`)),
    new RegExp(`is refused: <Wide> has more than ${attributes} attributes`),
  );
  assert.match(
    refusal(bytes(XML.replace('<FeatureType ID="1001"', `<FeatureType ID="${'1'.repeat(reference + 1)}"`))),
    new RegExp(`is refused: <FeatureType>'s ID is longer than ${reference} characters`),
  );
  // sax's own bound on any attribute, once the file comes in chunks (as it does from disk)
  const wide = withExtra(`<Wide Note="${'1'.repeat(200_000)}"/>`);
  const reader = ofac.stream?.({ name: 'sdn_advanced.xml' });
  assert.throws(
    () => {
      for (let i = 0; i < wide.length; i += 16_384) reader?.write(wide.subarray(i, i + 16_384));
    },
    (e: unknown) =>
      e instanceof ImportError &&
      /^sdn_advanced\.xml is refused: an attribute of <Wide> is longer than 65536 characters/.test(e.message),
  );
  const bics = Array.from({ length: perParty + 1 }, (_, i) => ['1001', `EXBK${String(i).padStart(4, '0')}`]);
  assert.match(
    refusal(
      bytes(
        XML.replace(
          '</DistinctParties>',
          `${party('55', ['MANY BICS'], bics as [string, string][])}</DistinctParties>`,
        ),
      ),
    ),
    new RegExp(`is refused: a <Profile> has more than ${perParty} BICs`),
  );
});

test('the file may come in chunks of any size, split anywhere: what it yields is the same', () => {
  const whole = ofac.parse({ bytes: bytes(XML), name: 'sdn_advanced.xml' });
  const file = bytes(XML);
  for (const size of [1, 7, 63, 64, 65, 1000]) {
    const reader = ofac.stream?.({ name: 'sdn_advanced.xml' });
    assert.ok(reader);
    for (let i = 0; i < file.length; i += size) reader.write(file.subarray(i, i + size));
    assert.deepEqual(reader.end(), whole, `chunks of ${size} bytes`);
  }
});

test('downloaded, the XML is parsed as it comes, in the network chunks it comes in, with what parsing it whole yields', async () => {
  const file = bytes(XML);
  const url = await loopbackServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/xml', 'last-modified': 'Mon, 23 Nov 2026 10:00:00 GMT' });
    // in pieces of 100 bytes, each its own write: a value is split across chunks
    for (let i = 0; i < file.length; i += 100) res.write(file.subarray(i, i + 100));
    res.end();
  });
  const parsed = await fetchAndParse('ofac-sdn', `${url}/sdn_advanced.xml`, Date.now(), undefined, undefined);
  const whole = ofac.parse({ bytes: file, name: `${url}/sdn_advanced.xml` });
  assert.deepEqual(parsed, whole);
  assert.equal(parsed.records.length, 3);
  assert.deepEqual([parsed.asOf, parsed.asOfBasis], ['2026-11-07', 'file']);
});
