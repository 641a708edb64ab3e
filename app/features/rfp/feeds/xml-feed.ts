// RSS 2.0 (https://www.rssboard.org/rss-specification: rss/channel/item with title, link, guid, pubDate,
// description, category) and Atom (RFC 4287: feed/entry with id, title, link@href, updated, published,
// summary), for portals that publish neither OCDS nor TED's JSON (decision 065). Read with fast-xml-parser
// (runs in workerd: tests/worker/rfp-feeds.test.ts). A document type is refused outright: no feed needs one,
// and entity declarations are how XML bombs and external entities get in; entities are not expanded either
// (cleanText decodes the five predefined ones in the text it keeps).
import { XMLParser } from 'fast-xml-parser';
import { asArray, cleanDate, cleanText, cleanUrl, FEED_LIMITS, FeedFormatError, isObject, type Notice } from './notice.ts';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
});

/** The text of an element: a string, or its #text when it has attributes (Atom's type="html"). */
const textOf = (value: unknown): unknown => (isObject(value) ? value['#text'] : value);

export function parseXmlFeed(xml: string): Notice[] {
  const text = xml.replace(/^\uFEFF/, '').trimStart();
  if (text.length > FEED_LIMITS.maxChars) throw new FeedFormatError('The feed is larger than 2 MB');
  if (!text.startsWith('<')) throw new FeedFormatError('Not an XML feed');
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new FeedFormatError('The feed declares a document type or entities, which are refused');
  let doc: unknown;
  try {
    doc = parser.parse(text, true);
  } catch (error) {
    throw new FeedFormatError(`Not well-formed XML: ${(error as Error).message.slice(0, 200)}`);
  }
  if (!isObject(doc)) throw new FeedFormatError('Not an RSS or Atom feed');
  if (isObject(doc.rss)) return rssItems(isObject(doc.rss.channel) ? doc.rss.channel : {});
  if (isObject(doc.feed)) return atomEntries(doc.feed);
  throw new FeedFormatError('Not an RSS or Atom feed');
}

function rssItems(channel: Record<string, unknown>): Notice[] {
  const out: Notice[] = [];
  for (const item of asArray(channel.item).slice(0, FEED_LIMITS.maxNotices)) {
    if (!isObject(item)) continue;
    const title = cleanText(textOf(item.title), FEED_LIMITS.maxTitle);
    const link = cleanUrl(textOf(item.link));
    const id = cleanText(textOf(item.guid), FEED_LIMITS.maxUrl) ?? link;
    if (!title || !id) continue;
    out.push(plain(id, title, link, cleanDate(textOf(item.pubDate)), item));
  }
  return out;
}

function atomEntries(feed: Record<string, unknown>): Notice[] {
  const out: Notice[] = [];
  for (const entry of asArray(feed.entry).slice(0, FEED_LIMITS.maxNotices)) {
    if (!isObject(entry)) continue;
    const title = cleanText(textOf(entry.title), FEED_LIMITS.maxTitle);
    const links = asArray(entry.link).filter(isObject);
    const alternate = links.find((l) => (l['@_rel'] ?? 'alternate') === 'alternate') ?? links[0];
    const link = cleanUrl(alternate?.['@_href']);
    const id = cleanText(textOf(entry.id), FEED_LIMITS.maxUrl) ?? link;
    if (!title || !id) continue;
    out.push(plain(id, title, link, cleanDate(textOf(entry.published) ?? textOf(entry.updated)), entry));
  }
  return out;
}

/** A notice from a plain feed: title, link and date; buyer, value and deadline are for matching's text search. */
function plain(id: string, title: string, url: string | null, publishedAt: string | null, raw: unknown): Notice {
  return { sourceId: id, title, buyer: null, country: null, cpv: [], value: null, currency: null, deadline: null, publishedAt, documents: [], url, raw };
}
