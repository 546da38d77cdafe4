import sax from 'sax';
import type { SanctionRecord } from '../types.ts';
import { type ChunkReader, ImportError, mib } from './types.ts';

const BIC = /^[A-Z0-9]{8}([A-Z0-9]{3})?$/;
/** Bytes decoded and fed to the parser at a time: the file is never held as one string. */
const CHUNK_BYTES = 1 << 20;

/**
 * Bounds on what one element may make the reader hold, each far past any real file (OFAC's
 * longest name is under 200 characters, its longest remark 1,000, its deepest element about ten
 * levels down, its widest about ten attributes): a file past one is refused, naming the file and
 * the element, before it can make the import hold more than its memory bound (docs/api.md, "Data routes").
 */
export const SDN_XML_BOUNDS = {
  /** Characters of text kept for one value (a name part, a BIC, a program, a feature type). */
  text: 4096,
  /** Characters of an attribute that is kept (an ID, a FixedRef): the real ones are numbers. */
  reference: 256,
  /** Characters of one party's primary name, its parts joined. */
  name: 4096,
  depth: 64,
  attributes: 64,
  /** Feature types named SWIFT/BIC (the real file has one). */
  swiftTypes: 64,
  /** BICs of one party, and programs of one party. */
  perParty: 256,
  /** BICs of the whole file (the real file has a few hundred). */
  records: 100_000,
  /**
   * Characters of the records the file yields, as stored (each BIC with its party's name,
   * reference and programs): what storing the dataset costs in memory grows with it, several
   * times over (docs/api.md, "Data routes").
   */
  kept: 32 * 1024 * 1024,
};

/** sax.MAX_BUFFER_LENGTH, which its types leave out: the longest name, value or comment sax reads. */
const SAX_BUFFER_CHARS = 64 * 1024;

/** What one record costs besides its name, reference and programs: its BIC, its keys, JSON's quotes. */
const RECORD_CHARS = 96;

interface Party {
  ref: string;
  name: string | null;
  bics: string[];
}

/**
 * A copy of a text value that is kept. The parser's text is a slice of a decoded chunk, and V8
 * keeps a whole chunk (1 MiB) alive for as long as one slice of it is referenced.
 */
const own = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');

/** The tag name without a namespace prefix (OFAC has used several default namespaces). */
const local = (tag: string): string => tag.slice(tag.indexOf(':') + 1);

/** What sdn_advanced.xml yields: the parties' BICs, and the file's DateOfIssue. */
export interface SdnXml {
  issued: string | null;
  records: SanctionRecord[];
}

/**
 * Streams OFAC's sdn_advanced.xml (the Advanced Sanctions Data Model) and keeps only parties
 * with a "SWIFT/BIC" feature. The schema's order is relied on: reference values, then the
 * parties, then the sanctions entries, so only BIC-bearing parties are ever held in memory.
 *   <DateOfIssue><Year/><Month/><Day/></DateOfIssue>
 *   ReferenceValueSets: FeatureType ID → "SWIFT/BIC"; SanctionsType ID → "Program"
 *   DistinctParty FixedRef / Profile ID / Identity / Alias Primary / DocumentedName / NamePartValue
 *   Profile / Feature FeatureTypeID / FeatureVersion / VersionDetail (the BIC)
 *   SanctionsEntry ProfileID / SanctionsMeasure SanctionsTypeID / Comment (the program)
 * It is fed the file chunk by chunk, as it is read from the disk or the network: neither the
 * file nor any one of its values is ever held whole.
 */
export function sdnAdvancedXmlReader(fileName: string): ChunkReader<SdnXml> {
  const bounds = SDN_XML_BOUNDS;
  const refuse = (what: string): never => {
    throw new ImportError(`${fileName} is refused: ${what}, more than any real sdn_advanced.xml; nothing changed`);
  };
  const swiftTypes = new Set<string>();
  let programType: string | null = null;
  const issued: Record<string, string> = {};
  const parties = new Map<string, Party>();
  const programs = new Map<string, Set<string>>();

  const path: string[] = [];
  let text: string | null = null;
  let refId = '';
  let partyRef = '';
  let profile: (Party & { id: string }) | null = null;
  let primaryAlias = false;
  let nameParts: string[] | null = null;
  let nameLength = 0;
  let swiftFeature = false;
  let entry: string | null = null;
  let programMeasure = false;

  const parser = sax.parser(true, { trim: false, normalize: false });
  /** The element whose start tag is being read (for the refusals). */
  let opening = '';
  parser.onerror = (e) => {
    const message = e.message.split('\n')[0];
    // sax's own bound on any one name, value or comment it reads, past which it stops
    const buffer = /^Max buffer length exceeded: (\w+)/.exec(message)?.[1];
    if (buffer) {
      const what = buffer.startsWith('attrib') ? `an attribute of <${opening}>` : `a ${buffer} (sax)`;
      refuse(`${what} is longer than ${SAX_BUFFER_CHARS} characters`);
    }
    throw new ImportError(`${fileName} is not well-formed XML: ${message}`);
  };
  parser.ontext = parser.oncdata = (t) => {
    if (text === null) return;
    if (text.length + t.length > bounds.text)
      refuse(`<${path.at(-1)}> holds more than ${bounds.text} characters of text`);
    text += t;
  };
  let attributes = 0;
  parser.onopentagstart = (node) => {
    opening = local(node.name);
    attributes = 0;
  };
  parser.onattribute = () => {
    if (++attributes > bounds.attributes) refuse(`<${opening}> has more than ${bounds.attributes} attributes`);
  };
  let recordCount = 0;
  let keptChars = 0;
  const keep = (chars: number): void => {
    keptChars += chars;
    if (keptChars > bounds.kept)
      refuse(`the records of its parties' BICs, names and programs come to more than ${mib(bounds.kept)}`);
  };
  parser.onopentag = (node) => {
    const name = local(node.name);
    // without xmlns, sax gives each attribute as its string value
    const attribute = (key: string): string | undefined => {
      const given = node.attributes[key];
      const value = typeof given === 'string' ? given : given?.value;
      if (value && value.length > bounds.reference)
        refuse(`<${name}>'s ${key} is longer than ${bounds.reference} characters`);
      return value;
    };
    const parent = path.at(-1);
    if (path.length >= bounds.depth) refuse(`<${name}> is nested more than ${bounds.depth} elements deep`);
    if (!parent && name !== 'Sanctions')
      throw new ImportError(`${fileName} is not OFAC sdn_advanced.xml (its root is <${name}>, not <Sanctions>)`);
    if (parent === 'DateOfIssue' || name === 'FeatureType' || name === 'SanctionsType') text = '';
    if (name === 'FeatureType' || name === 'SanctionsType') refId = attribute('ID') ?? '';
    else if (name === 'DistinctParty') partyRef = attribute('FixedRef') ?? '';
    else if (name === 'Profile')
      profile = { id: attribute('ID') ?? '', ref: partyRef || attribute('ID') || '', name: null, bics: [] };
    else if (name === 'Alias') primaryAlias = attribute('Primary') === 'true';
    else if (name === 'DocumentedName' && primaryAlias && profile?.name === null) {
      nameParts = [];
      nameLength = 0;
    } else if (name === 'NamePartValue' && nameParts) text = '';
    else if (name === 'Feature') swiftFeature = profile !== null && swiftTypes.has(attribute('FeatureTypeID') ?? '');
    else if (name === 'VersionDetail' && swiftFeature) text = '';
    else if (name === 'SanctionsEntry') {
      const profileId = attribute('ProfileID') ?? '';
      entry = parties.has(profileId) ? profileId : null;
    } else if (name === 'SanctionsMeasure')
      programMeasure = entry !== null && attribute('SanctionsTypeID') === programType;
    else if (name === 'Comment' && programMeasure && parent === 'SanctionsMeasure') text = '';
    path.push(name);
  };
  parser.onclosetag = (tag) => {
    const name = local(tag);
    path.pop();
    const value = text === null ? '' : own(text.trim());
    text = null;
    if (path.at(-1) === 'DateOfIssue') {
      if (name === 'Year' || name === 'Month' || name === 'Day') issued[name] = value;
    } else if (name === 'FeatureType' && /\bSWIFT\b|\bBIC\b/i.test(value)) {
      if (swiftTypes.add(refId).size > bounds.swiftTypes)
        refuse(`more than ${bounds.swiftTypes} <FeatureType> elements name SWIFT/BIC`);
    } else if (name === 'SanctionsType' && value === 'Program') programType = refId;
    else if (name === 'NamePartValue' && nameParts && value) {
      nameLength += value.length + 1;
      if (nameLength > bounds.name) refuse(`a <DocumentedName> is more than ${bounds.name} characters long`);
      nameParts.push(value);
    } else if (name === 'DocumentedName' && nameParts && profile)
      [profile.name, nameParts] = [nameParts.join(' '), null];
    else if (name === 'Alias') primaryAlias = false;
    else if (name === 'VersionDetail' && swiftFeature && profile) {
      const bic = value.replace(/\s+/g, '').toUpperCase();
      if (BIC.test(bic) && !profile.bics.includes(bic)) {
        if (profile.bics.push(bic) > bounds.perParty) refuse(`a <Profile> has more than ${bounds.perParty} BICs`);
      }
    } else if (name === 'Feature') swiftFeature = false;
    else if (name === 'Profile' && profile) {
      if (profile.bics.length) {
        recordCount += profile.bics.length;
        if (recordCount > bounds.records) refuse(`its parties have more than ${bounds.records} BICs`);
        keep(profile.bics.length * ((profile.name?.length ?? 0) + profile.ref.length + RECORD_CHARS));
        parties.set(profile.id, profile);
      }
      profile = null;
    } else if (name === 'Comment' && programMeasure && entry && value) {
      const kept = programs.get(entry) ?? new Set<string>();
      if (!kept.has(value)) {
        if (kept.add(value).size > bounds.perParty)
          refuse(`a <SanctionsEntry> names more than ${bounds.perParty} programs`);
        // each of the party's records lists it
        keep((value.length + 3) * (parties.get(entry)?.bics.length ?? 0));
        programs.set(entry, kept);
      }
    } else if (name === 'SanctionsMeasure') programMeasure = false;
    else if (name === 'SanctionsEntry') entry = null;
  };

  const decoder = new TextDecoder('utf-8');
  const write = (bytes: Uint8Array): void => {
    for (let i = 0; i < bytes.length; i += CHUNK_BYTES)
      parser.write(decoder.decode(bytes.subarray(i, i + CHUNK_BYTES), { stream: true }));
  };
  const end = (): SdnXml => {
    parser.write(decoder.decode()).close();
    if (swiftTypes.size === 0)
      throw new ImportError(
        `${fileName} names no SWIFT/BIC feature type in its reference values: not OFAC sdn_advanced.xml`,
      );
    const records = [...parties].flatMap(([id, p]) =>
      p.bics.map((bic) => ({
        bic,
        name: p.name ?? '',
        programs: [...(programs.get(id) ?? [])],
        reference: `OFAC SDN ent_num ${p.ref}`,
      })),
    );
    const { Year: y, Month: m, Day: d } = issued;
    const date = y && m && d ? `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}` : null;
    return { issued: date, records };
  };
  return { write, end };
}
