import sax from 'sax';
import type { SanctionRecord } from '../types.ts';
import { ImportError } from './types.ts';

const BIC = /^[A-Z0-9]{8}([A-Z0-9]{3})?$/;
/** Bytes decoded and fed to the parser at a time: the file is never held as one string. */
const CHUNK_BYTES = 1 << 20;

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

/**
 * Streams OFAC's sdn_advanced.xml (the Advanced Sanctions Data Model) and keeps only parties
 * with a "SWIFT/BIC" feature. The schema's order is relied on: reference values, then the
 * parties, then the sanctions entries, so only BIC-bearing parties are ever held in memory.
 *   <DateOfIssue><Year/><Month/><Day/></DateOfIssue>
 *   ReferenceValueSets: FeatureType ID → "SWIFT/BIC"; SanctionsType ID → "Program"
 *   DistinctParty FixedRef / Profile ID / Identity / Alias Primary / DocumentedName / NamePartValue
 *   Profile / Feature FeatureTypeID / FeatureVersion / VersionDetail (the BIC)
 *   SanctionsEntry ProfileID / SanctionsMeasure SanctionsTypeID / Comment (the program)
 */
export function readSdnAdvancedXml(
  bytes: Uint8Array,
  fileName: string,
): { issued: string | null; records: SanctionRecord[] } {
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
  let swiftFeature = false;
  let entry: string | null = null;
  let programMeasure = false;

  const parser = sax.parser(true, { trim: false, normalize: false });
  parser.onerror = (e) => {
    throw new ImportError(`${fileName} is not well-formed XML: ${e.message.split('\n')[0]}`);
  };
  parser.ontext = parser.oncdata = (t) => {
    if (text !== null) text += t;
  };
  parser.onopentag = (node) => {
    const name = local(node.name);
    // without xmlns, sax gives each attribute as its string value
    const attribute = (key: string): string | undefined => {
      const value = node.attributes[key];
      return typeof value === 'string' ? value : value?.value;
    };
    const parent = path.at(-1);
    if (!parent && name !== 'Sanctions')
      throw new ImportError(`${fileName} is not OFAC sdn_advanced.xml (its root is <${name}>, not <Sanctions>)`);
    if (parent === 'DateOfIssue' || name === 'FeatureType' || name === 'SanctionsType') text = '';
    if (name === 'FeatureType' || name === 'SanctionsType') refId = attribute('ID') ?? '';
    else if (name === 'DistinctParty') partyRef = attribute('FixedRef') ?? '';
    else if (name === 'Profile')
      profile = { id: attribute('ID') ?? '', ref: partyRef || attribute('ID') || '', name: null, bics: [] };
    else if (name === 'Alias') primaryAlias = attribute('Primary') === 'true';
    else if (name === 'DocumentedName' && primaryAlias && profile?.name === null) nameParts = [];
    else if (name === 'NamePartValue' && nameParts) text = '';
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
    if (path.at(-1) === 'DateOfIssue') issued[name] = value;
    else if (name === 'FeatureType' && /\bSWIFT\b|\bBIC\b/i.test(value)) swiftTypes.add(refId);
    else if (name === 'SanctionsType' && value === 'Program') programType = refId;
    else if (name === 'NamePartValue' && nameParts && value) nameParts.push(value);
    else if (name === 'DocumentedName' && nameParts && profile) [profile.name, nameParts] = [nameParts.join(' '), null];
    else if (name === 'Alias') primaryAlias = false;
    else if (name === 'VersionDetail' && swiftFeature && profile) {
      const bic = value.replace(/\s+/g, '').toUpperCase();
      if (BIC.test(bic) && !profile.bics.includes(bic)) profile.bics.push(bic);
    } else if (name === 'Feature') swiftFeature = false;
    else if (name === 'Profile' && profile) {
      if (profile.bics.length) parties.set(profile.id, profile);
      profile = null;
    } else if (name === 'Comment' && programMeasure && entry && value) {
      programs.set(entry, (programs.get(entry) ?? new Set()).add(value));
    } else if (name === 'SanctionsMeasure') programMeasure = false;
    else if (name === 'SanctionsEntry') entry = null;
  };

  const decoder = new TextDecoder('utf-8');
  for (let i = 0; i < bytes.length; i += CHUNK_BYTES)
    parser.write(decoder.decode(bytes.subarray(i, i + CHUNK_BYTES), { stream: true }));
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
}
