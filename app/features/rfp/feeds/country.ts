// A notice's buyer country as ISO 3166 alpha-2, so a saved search's countries (alpha-2) compare with it:
// TED gives alpha-3 codes ('DEU'), OCDS a country name ('United Kingdom') or a code. The countries that
// publish to the feeds the radar reads are listed; another is kept as the feed wrote it (matched by nobody's
// alpha-2 filter, shown as written).
const COUNTRIES: [alpha2: string, alpha3: string, ...names: string[]][] = [
  ['AT', 'AUT', 'austria'], ['BE', 'BEL', 'belgium'], ['BG', 'BGR', 'bulgaria'], ['HR', 'HRV', 'croatia'], ['CY', 'CYP', 'cyprus'],
  ['CZ', 'CZE', 'czechia', 'czech republic'], ['DK', 'DNK', 'denmark'], ['EE', 'EST', 'estonia'], ['FI', 'FIN', 'finland'],
  ['FR', 'FRA', 'france'], ['DE', 'DEU', 'germany'], ['GR', 'GRC', 'greece'], ['HU', 'HUN', 'hungary'], ['IE', 'IRL', 'ireland'],
  ['IT', 'ITA', 'italy'], ['LV', 'LVA', 'latvia'], ['LT', 'LTU', 'lithuania'], ['LU', 'LUX', 'luxembourg'], ['MT', 'MLT', 'malta'],
  ['NL', 'NLD', 'netherlands', 'the netherlands'], ['PL', 'POL', 'poland'], ['PT', 'PRT', 'portugal'], ['RO', 'ROU', 'romania'],
  ['SK', 'SVK', 'slovakia'], ['SI', 'SVN', 'slovenia'], ['ES', 'ESP', 'spain'], ['SE', 'SWE', 'sweden'], ['NO', 'NOR', 'norway'],
  ['IS', 'ISL', 'iceland'], ['LI', 'LIE', 'liechtenstein'], ['CH', 'CHE', 'switzerland'],
  ['GB', 'GBR', 'united kingdom', 'uk', 'england', 'scotland', 'wales', 'northern ireland', 'great britain'],
  ['US', 'USA', 'united states', 'united states of america'], ['CA', 'CAN', 'canada'], ['AU', 'AUS', 'australia'],
  ['NZ', 'NZL', 'new zealand'], ['UA', 'UKR', 'ukraine'], ['MD', 'MDA', 'moldova'], ['RS', 'SRB', 'serbia'],
];

const BY_NAME = new Map<string, string>();
for (const [alpha2, alpha3, ...names] of COUNTRIES) {
  for (const key of [alpha2, alpha3, ...names]) BY_NAME.set(key.toLowerCase(), alpha2);
}

export function countryCode(value: string | null): string | null {
  if (!value) return null;
  return BY_NAME.get(value.trim().toLowerCase()) ?? value;
}
