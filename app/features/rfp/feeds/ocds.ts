// OCDS release packages (and record packages' compiled releases), as the UK's Contracts Finder and Find a
// Tender publish them (decision 065; https://standard.open-contracting.org/latest/en/schema/release_package/):
// `releases[]` each with `ocid`, `date`, `buyer` / `parties[]` (roles 'buyer'), and `tender` (title, value
// {amount, currency}, tenderPeriod.endDate, items[].classification {scheme 'CPV', id}, documents[].url).
// The notice is the contracting process (ocid): a later release of the same ocid is its amendment.
import {
  asArray, cleanAmount, cleanCpv, cleanCurrency, cleanDate, cleanText, cleanUrl, FEED_LIMITS, FeedFormatError, isObject, type Notice,
} from './notice.ts';

export function parseOcdsPackage(json: unknown): Notice[] {
  if (!isObject(json)) throw new FeedFormatError('Not an OCDS release package: expected a JSON object');
  const releases = Array.isArray(json.releases)
    ? json.releases
    : Array.isArray(json.records)
      ? json.records.map((record) => (isObject(record) ? record.compiledRelease : null))
      : null;
  if (!releases) throw new FeedFormatError('Not an OCDS release package: no releases or records');
  // The newest release of each process wins (a package may hold several of one ocid).
  const byOcid = new Map<string, Notice>();
  for (const release of releases.slice(0, FEED_LIMITS.maxNotices * 2)) {
    const notice = noticeOf(release);
    if (!notice) continue;
    const earlier = byOcid.get(notice.sourceId);
    if (!earlier || (notice.publishedAt ?? '') >= (earlier.publishedAt ?? '')) byOcid.set(notice.sourceId, notice);
    if (byOcid.size >= FEED_LIMITS.maxNotices) break;
  }
  return [...byOcid.values()];
}

function noticeOf(release: unknown): Notice | null {
  if (!isObject(release)) return null;
  const ocid = cleanText(release.ocid, FEED_LIMITS.maxName);
  const tender = isObject(release.tender) ? release.tender : {};
  const title = cleanText(tender.title, FEED_LIMITS.maxTitle) ?? cleanText(tender.description, FEED_LIMITS.maxTitle);
  if (!ocid || !title) return null;
  const parties = asArray(release.parties).filter(isObject);
  const buyerRef = isObject(release.buyer) ? release.buyer : null;
  const buyerParty =
    parties.find((p) => buyerRef && p.id !== undefined && p.id === buyerRef.id) ??
    parties.find((p) => asArray(p.roles).includes('buyer'));
  const address = buyerParty && isObject(buyerParty.address) ? buyerParty.address : {};
  const value = isObject(tender.value) ? tender.value : isObject(tender.minValue) ? tender.minValue : {};
  const period = isObject(tender.tenderPeriod) ? tender.tenderPeriod : {};
  const classifications = [
    ...asArray(tender.items).flatMap((item) => (isObject(item) ? [item.classification, ...asArray(item.additionalClassifications)] : [])),
    tender.classification,
  ].filter((c): c is Record<string, unknown> => isObject(c) && String(c.scheme ?? '').toUpperCase() === 'CPV');
  const documents = asArray(tender.documents)
    .map((d) => (isObject(d) ? cleanUrl(d.url) : null))
    .filter((url): url is string => url !== null)
    .slice(0, FEED_LIMITS.maxDocuments);
  const cents = cleanAmount(value.amount);
  return {
    sourceId: ocid,
    title,
    buyer: cleanText(buyerRef?.name, FEED_LIMITS.maxName) ?? cleanText(buyerParty?.name, FEED_LIMITS.maxName),
    country: cleanText(address.countryName ?? address.country, 100),
    cpv: cleanCpv(classifications.map((c) => c.id)),
    value: cents,
    currency: cents === null ? null : cleanCurrency(value.currency),
    deadline: cleanDate(period.endDate),
    publishedAt: cleanDate(release.date),
    documents,
    // OCDS names no notice page; the first document (often the notice itself) or the release's uri.
    url: cleanUrl(release.uri) ?? documents[0] ?? null,
    raw: release,
  };
}
