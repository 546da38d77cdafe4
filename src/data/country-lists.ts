/**
 * Country lists used by the compliance check, each with the publication it comes from.
 * Transcribed from the public statements; the newest FATF plenary that could be established
 * is 17-19 June 2026 (no October 2026 outcome was available), and the newest EU amendment
 * is in force from 29 January 2026. Update both together with their dates.
 */
export interface CountryList {
  id: 'fatf_call_for_action' | 'fatf_increased_monitoring' | 'eu_high_risk_third_countries';
  title: string;
  source: string;
  as_of: string;
  countries: ReadonlyMap<string, string>;
}

const list = (entries: string): ReadonlyMap<string, string> =>
  new Map(
    entries.split(';').map((pair): [string, string] => {
      const [code, name] = pair.trim().split(':');
      return [code, name];
    }),
  );

export const FATF_CALL_FOR_ACTION: CountryList = {
  id: 'fatf_call_for_action',
  title: 'FATF high-risk jurisdictions subject to a call for action ("black list")',
  source: 'FATF public statement, plenary of 17-19 June 2026',
  as_of: '2026-06-19',
  countries: list("KP:Democratic People's Republic of Korea;IR:Iran;MM:Myanmar"),
};

export const FATF_INCREASED_MONITORING: CountryList = {
  id: 'fatf_increased_monitoring',
  title: 'FATF jurisdictions under increased monitoring ("grey list")',
  source: 'FATF "Jurisdictions under Increased Monitoring", plenary of 17-19 June 2026',
  as_of: '2026-06-19',
  countries: list(
    "AO:Angola;BO:Bolivia;BA:Bosnia and Herzegovina;BG:Bulgaria;CM:Cameroon;CI:Cote d'Ivoire;" +
      'CD:Democratic Republic of the Congo;HT:Haiti;IQ:Iraq;KE:Kenya;KW:Kuwait;LA:Lao PDR;LB:Lebanon;' +
      'MC:Monaco;NP:Nepal;PG:Papua New Guinea;SS:South Sudan;SY:Syria;VE:Venezuela;VN:Vietnam;' +
      'VG:Virgin Islands (UK);YE:Yemen',
  ),
};

export const EU_HIGH_RISK: CountryList = {
  id: 'eu_high_risk_third_countries',
  title: 'EU high-risk third countries (AML/CFT)',
  source: 'Commission Delegated Regulation (EU) 2016/1675 as amended, latest by (EU) 2026/46 and (EU) 2026/83',
  as_of: '2026-01-29',
  countries: list(
    "AF:Afghanistan;DZ:Algeria;AO:Angola;BO:Bolivia;VG:British Virgin Islands;CM:Cameroon;CI:Cote d'Ivoire;" +
      "KP:Democratic People's Republic of Korea;CD:Democratic Republic of the Congo;HT:Haiti;IR:Iran;KE:Kenya;" +
      'LA:Laos;LB:Lebanon;MC:Monaco;MM:Myanmar;NA:Namibia;NP:Nepal;RU:Russian Federation;SS:South Sudan;' +
      'SY:Syria;TT:Trinidad and Tobago;VU:Vanuatu;VE:Venezuela;VN:Vietnam;YE:Yemen',
  ),
};

export const COUNTRY_LISTS: readonly CountryList[] = [FATF_CALL_FOR_ACTION, FATF_INCREASED_MONITORING, EU_HIGH_RISK];
