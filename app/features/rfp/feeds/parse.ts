// A fetched feed's text to notices, by its declared format (decision 065).
import { FEED_LIMITS, FeedFormatError, type Notice } from './notice.ts';
import { parseOcdsPackage } from './ocds.ts';
import { parseTedSearch } from './ted.ts';
import { parseXmlFeed } from './xml-feed.ts';

export type FeedFormat = 'ocds' | 'ted' | 'rss';

export function parseFeed(format: FeedFormat, text: string): Notice[] {
  if (text.length > FEED_LIMITS.maxChars) throw new FeedFormatError('The feed is larger than 2 MB');
  if (format === 'rss') return parseXmlFeed(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new FeedFormatError('Not JSON');
  }
  return format === 'ocds' ? parseOcdsPackage(json) : parseTedSearch(json);
}
