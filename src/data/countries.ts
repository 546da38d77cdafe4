/** ISO 3166-1 alpha-2 codes in use, plus XK (Kosovo), which SWIFT assigns in BICs. */
const ISO_3166 = `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS
BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI
FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR
IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM
MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT
PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM
TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW XK`;

const COUNTRY_CODES: ReadonlySet<string> = new Set(ISO_3166.split(/\s+/));

export const isCountryCode = (code: string): boolean => COUNTRY_CODES.has(code);

export const SEPA_SCHEMES = ['SCT', 'SCT_INST', 'SDD_CORE', 'SDD_B2B'] as const;
export type SepaScheme = (typeof SEPA_SCHEMES)[number];

/**
 * Countries and territories in the geographical scope of the EPC's SEPA schemes (EPC409-09,
 * "EPC List of countries in the SEPA schemes' geographical scope"): EU and EEA states, the
 * non-EEA participants, and territories with their own ISO code. Albania, Moldova, Montenegro
 * and North Macedonia joined in 2025; their banks appear in the EPC register of 2025-09-08.
 */
export const SEPA_COUNTRIES: { source: string; as_of: string; members: ReadonlySet<string> } = {
  source:
    "EPC409-09 List of countries in the SEPA schemes' geographical scope (checked against the EPC register of participants, 2025-09-08)",
  as_of: '2025-09-08',
  members: new Set([
    // EU member states
    'AT',
    'BE',
    'BG',
    'HR',
    'CY',
    'CZ',
    'DK',
    'EE',
    'FI',
    'FR',
    'DE',
    'GR',
    'HU',
    'IE',
    'IT',
    'LV',
    'LT',
    'LU',
    'MT',
    'NL',
    'PL',
    'PT',
    'RO',
    'SK',
    'SI',
    'ES',
    'SE',
    // EEA
    'IS',
    'LI',
    'NO',
    // other participants
    'CH',
    'GB',
    'MC',
    'SM',
    'VA',
    'AD',
    'AL',
    'MD',
    'ME',
    'MK',
    // territories with their own code (EU outermost regions, Crown Dependencies, Gibraltar, Åland)
    'AX',
    'GF',
    'GP',
    'MQ',
    'RE',
    'YT',
    'BL',
    'MF',
    'PM',
    'GI',
    'GG',
    'JE',
    'IM',
  ]),
};
