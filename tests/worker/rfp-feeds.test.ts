// The tender feed parsers run in workerd (decision 065): fast-xml-parser reads RSS and Atom inside the
// Worker's runtime, and the JSON formats parse there too.
import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../app/features/rfp/feeds/parse';

describe('tender feeds in workerd', () => {
  it('parses RSS, Atom, OCDS and TED, and refuses entity declarations', () => {
    const rss = '<rss version="2.0"><channel><item><title>Road works &amp; repair</title><link>https://portal.test/t/1</link></item></channel></rss>';
    expect(parseFeed('rss', rss).map((n) => n.title)).toEqual(['Road works & repair']);
    const atom = '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>urn:1</id><title>Catering</title><link href="https://portal.test/n/1"/></entry></feed>';
    expect(parseFeed('rss', atom).map((n) => n.url)).toEqual(['https://portal.test/n/1']);
    expect(parseFeed('ocds', JSON.stringify({ releases: [{ ocid: 'ocds-1', tender: { title: 'Hosting' } }] }))[0].sourceId).toBe('ocds-1');
    expect(parseFeed('ted', JSON.stringify({ notices: [{ 'publication-number': '1-2026', 'notice-title': { eng: 'IT' } }] }))[0].sourceId).toBe('1-2026');
    expect(() => parseFeed('rss', '<!DOCTYPE x [<!ENTITY a "b">]><rss/>')).toThrow('refused');
  });
});
