// TED's notice search JSON (decision 065; POST https://api.ted.europa.eu/v3/notices/search, documented at
// https://docs.ted.europa.eu/api/endpoints/ted-europa-eu.html): `{ notices: [...], totalNoticeCount }`,
// each notice holding the fields the search asked for, named by their eForms aliases: 'publication-number',
// 'notice-title' and 'buyer-name' (per language: { eng: ... }), 'buyer-country' (ISO alpha-3 codes),
// 'classification-cpv', 'deadline-receipt-tender-date-lot', 'publication-date', an estimated value with its
// currency, and 'links' ({ html: { ENG: url }, pdf: {...}, xml: {...} }). Values come as a value or a list.
import {
  asArray, cleanAmount, cleanCpv, cleanCurrency, cleanDate, cleanText, cleanUrl, FEED_LIMITS, FeedFormatError, isObject, type Notice,
} from './notice.ts';

/**
 * The body POSTed for a TED source with a saved expert query (decision 092; documented at
 * https://docs.ted.europa.eu/reuse/search-api.html): the query, the fields the parser reads, a page of at
 * most 100 notices (TED allows 250), the notices still open (scope ACTIVE), by page number. The newest first
 * is the query's own choice (its SORT BY); a notice seen before is stored once per source and notice id, so
 * repeating the search each hour adds only what is new or amended. Page 2, 3, ... are asked for while each
 * page still brings new notices (run-feeds.server.ts, decision 092's "Reading every new notice"): TED's page
 * number mode is stateless and serves the first 15,000 notices of a query, far more than the job reads.
 */
export const TED_SEARCH_FIELDS = [
  'publication-number', 'publication-date', 'notice-title', 'buyer-name', 'buyer-country', 'classification-cpv',
  'deadline-receipt-tender-date-lot', 'deadline-date-lot', 'deadline', 'estimated-value-proc', 'estimated-value-cur-proc',
  'total-value', 'total-value-cur', 'links',
] as const;
export const TED_SEARCH_LIMIT = 100;

export function tedSearchBody(query: string, page = 1): string {
  return JSON.stringify({ query, fields: TED_SEARCH_FIELDS, page, limit: TED_SEARCH_LIMIT, scope: 'ACTIVE', paginationMode: 'PAGE_NUMBER' });
}

/** One page of a TED search: its notices, how many TED sent (before any was dropped) and the query's total. */
export interface TedSearchPage {
  notices: Notice[];
  returned: number;
  total: number | null;
}

export function parseTedSearchPage(text: string): TedSearchPage {
  if (text.length > FEED_LIMITS.maxChars) throw new FeedFormatError('The feed is larger than 2 MB');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new FeedFormatError('Not JSON');
  }
  const notices = parseTedSearch(json);
  const body = json as { notices: unknown[]; totalNoticeCount?: unknown };
  const total = typeof body.totalNoticeCount === 'number' && Number.isFinite(body.totalNoticeCount) ? body.totalNoticeCount : null;
  return { notices, returned: body.notices.length, total };
}

/** The English text of a multilingual field, else the first language's; a list gives its first entry. */
function inEnglish(value: unknown): unknown {
  if (!isObject(value)) return asArray(value)[0];
  const text = value.eng ?? value.ENG ?? Object.values(value)[0];
  return asArray(text)[0];
}

const first = (notice: Record<string, unknown>, ...keys: string[]) => {
  for (const key of keys) {
    const found = asArray(notice[key])[0];
    if (found !== undefined && found !== null) return found;
  }
  return undefined;
};

export function parseTedSearch(json: unknown): Notice[] {
  if (!isObject(json) || !Array.isArray(json.notices)) throw new FeedFormatError('Not a TED search response: no notices');
  const out: Notice[] = [];
  for (const notice of json.notices.slice(0, FEED_LIMITS.maxNotices)) {
    if (!isObject(notice)) continue;
    const id = cleanText(first(notice, 'publication-number', 'ND'), 100);
    const title = cleanText(inEnglish(notice['notice-title']), FEED_LIMITS.maxTitle);
    if (!id || !title) continue;
    const links = isObject(notice.links) ? notice.links : {};
    const html = isObject(links.html) ? links.html : {};
    const pdf = isObject(links.pdf) ? links.pdf : {};
    const cents = cleanAmount(first(notice, 'estimated-value-lot', 'estimated-value-proc', 'estimated-value-glo', 'total-value'));
    out.push({
      sourceId: id,
      title,
      buyer: cleanText(inEnglish(notice['buyer-name']), FEED_LIMITS.maxName),
      country: cleanText(first(notice, 'buyer-country', 'organisation-country-buyer'), 3)?.toUpperCase() ?? null,
      cpv: cleanCpv(asArray(notice['classification-cpv'])),
      value: cents,
      currency: cents === null ? null : cleanCurrency(first(notice, 'estimated-value-cur-lot', 'estimated-value-cur-proc', 'estimated-value-cur-glo', 'total-value-cur')),
      deadline: cleanDate(first(notice, 'deadline-receipt-tender-date-lot', 'deadline-date-lot', 'deadline')),
      publishedAt: cleanDate(first(notice, 'publication-date')),
      documents: [cleanUrl(pdf.ENG ?? Object.values(pdf)[0])].filter((url): url is string => url !== null),
      url: cleanUrl(html.ENG ?? Object.values(html)[0]) ?? `https://ted.europa.eu/en/notice/-/detail/${encodeURIComponent(id)}`,
      raw: notice,
    });
  }
  return out;
}
