import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadDataPlane } from '../../src/data/index.ts';
import { ImportError, importFile, importerFor } from '../../src/data/importers/index.ts';
import type { SanctionRecord } from '../../src/data/types.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
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
