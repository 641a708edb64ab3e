// The tender feed parsers (decision 065) on payloads shaped like each documented format: an OCDS release
// package (Contracts Finder style), a TED search response, RSS 2.0 and Atom; and the bad input they refuse
// or clean (not XML, a document type with entities, HTML and control characters in titles, odd amounts).
import { describe, expect, it } from 'vitest';
import { cleanAmount, cleanDate, FeedFormatError } from '../../app/features/rfp/feeds/notice.ts';
import { parseFeed } from '../../app/features/rfp/feeds/parse.ts';

const ocds = {
  uri: 'https://www.contractsfinder.service.gov.uk/Published/Notices/OCDS/Search',
  publishedDate: '2026-11-20T10:00:00Z',
  releases: [
    {
      ocid: 'ocds-b5fd17-abc', id: 'ocds-b5fd17-abc-1', date: '2026-11-01T09:00:00Z', tag: ['tender'],
      buyer: { id: 'GB-1', name: 'Borough Council' },
      parties: [{ id: 'GB-1', name: 'Borough Council', roles: ['buyer'], address: { countryName: 'United Kingdom' } }],
      tender: {
        title: 'Cloud hosting <b>services</b>', value: { amount: 250000.5, currency: 'GBP' }, tenderPeriod: { endDate: '2026-12-15T12:00:00Z' },
        items: [{ classification: { scheme: 'CPV', id: '72000000' } }, { classification: { scheme: 'CPV', id: '48000000-8' } }],
        documents: [{ url: 'https://example.test/notice.pdf' }, { url: 'javascript:alert(1)' }],
      },
    },
    // The same process amended later: its deadline moved.
    {
      ocid: 'ocds-b5fd17-abc', id: 'ocds-b5fd17-abc-2', date: '2026-11-10T09:00:00Z', tag: ['tenderAmendment'],
      buyer: { id: 'GB-1', name: 'Borough Council' },
      parties: [{ id: 'GB-1', name: 'Borough Council', roles: ['buyer'], address: { countryName: 'United Kingdom' } }],
      tender: { title: 'Cloud hosting services', value: { amount: 250000.5, currency: 'GBP' }, tenderPeriod: { endDate: '2026-12-22T12:00:00Z' } },
    },
    { ocid: 'ocds-no-title', tender: {} },
  ],
};

const ted = {
  totalNoticeCount: 2,
  notices: [
    {
      'publication-number': '712345-2026',
      'notice-title': { eng: 'Germany – IT services – Software development', deu: 'Deutschland – IT-Dienste' },
      'buyer-name': { eng: ['Stadt Berlin'] },
      'buyer-country': ['DEU'],
      'classification-cpv': ['72000000', '72200000'],
      'deadline-receipt-tender-date-lot': ['2026-12-20+01:00'],
      'publication-date': '2026-11-18+01:00',
      'estimated-value-lot': ['1200000'],
      'estimated-value-cur-lot': ['EUR'],
      links: { html: { ENG: 'https://ted.europa.eu/en/notice/-/detail/712345-2026' }, pdf: { ENG: 'https://ted.europa.eu/en/notice/712345-2026/pdf' } },
    },
    { 'publication-number': '1-2026' },
  ],
};

const rss = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Tenders</title>
<item><title><![CDATA[Road <i>maintenance</i> &amp; repair]]></title><link>https://portal.test/t/1</link><guid>t-1</guid><pubDate>Wed, 18 Nov 2026 10:00:00 GMT</pubDate></item>
<item><title>Bridge\u0007 works &amp; more</title><link>https://portal.test/t/2</link></item>
</channel></rss>`;

const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Notices</title>
<entry><id>urn:uuid:1</id><title type="html">School &lt;b&gt;catering&lt;/b&gt;</title><link rel="alternate" href="https://portal.test/n/1"/><updated>2026-11-19T08:00:00Z</updated></entry>
</feed>`;

describe('tender feeds', () => {
  it('reads an OCDS release package: one notice per process, the newest release, CPV, value in cents, safe links only', () => {
    const [notice, ...rest] = parseFeed('ocds', JSON.stringify(ocds));
    expect(rest).toEqual([]);
    expect(notice).toMatchObject({
      sourceId: 'ocds-b5fd17-abc', title: 'Cloud hosting services', buyer: 'Borough Council', country: 'United Kingdom',
      value: 25_000_050, currency: 'GBP', deadline: '2026-12-22T12:00:00.000Z', publishedAt: '2026-11-10T09:00:00.000Z',
    });
    const first = parseFeed('ocds', JSON.stringify({ releases: [ocds.releases[0]] }))[0];
    expect(first.cpv).toEqual(['72000000', '48000000']);
    expect(first.documents).toEqual(['https://example.test/notice.pdf']);
  });

  it('reads a TED search response: English title, buyer, alpha-3 country, CPV, deadline with offset, value, links', () => {
    const notices = parseFeed('ted', JSON.stringify(ted));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      sourceId: '712345-2026', title: 'Germany – IT services – Software development', buyer: 'Stadt Berlin', country: 'DEU',
      cpv: ['72000000', '72200000'], value: 120_000_000, currency: 'EUR', deadline: '2026-12-19T23:00:00.000Z',
      url: 'https://ted.europa.eu/en/notice/-/detail/712345-2026', documents: ['https://ted.europa.eu/en/notice/712345-2026/pdf'],
    });
  });

  it('reads RSS 2.0 and Atom, titles as plain text without markup or control characters', () => {
    const items = parseFeed('rss', rss);
    expect(items.map((n) => [n.sourceId, n.title, n.url])).toEqual([
      ['t-1', 'Road maintenance & repair', 'https://portal.test/t/1'],
      ['https://portal.test/t/2', 'Bridge works & more', 'https://portal.test/t/2'],
    ]);
    expect(items[0].publishedAt).toBe('2026-11-18T10:00:00.000Z');
    const [entry] = parseFeed('rss', atom);
    expect(entry).toMatchObject({ sourceId: 'urn:uuid:1', title: 'School catering', url: 'https://portal.test/n/1', publishedAt: '2026-11-19T08:00:00.000Z' });
  });

  it('refuses what is not a feed, and XML declaring entities', () => {
    expect(() => parseFeed('rss', '{"not": "xml"}')).toThrow(FeedFormatError);
    expect(() => parseFeed('rss', '<html><body>hi</body></html>')).toThrow('Not an RSS or Atom feed');
    expect(() => parseFeed('ocds', '<rss/>')).toThrow('Not JSON');
    expect(() => parseFeed('ted', '{"results": []}')).toThrow(FeedFormatError);
    const bomb = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><rss><channel><item><title>&lol2;</title></item></channel></rss>';
    expect(() => parseFeed('rss', bomb)).toThrow('refused');
    expect(() => parseFeed('rss', 'x'.repeat(2 * 1024 * 1024 + 1))).toThrow('larger than 2 MB');
  });

  it('reads amounts and dates in the shapes feeds write them', () => {
    expect(cleanAmount('1.234.567,89 EUR')).toBe(123_456_789);
    expect(cleanAmount('123,456.78')).toBe(12_345_678);
    expect(cleanAmount(5000)).toBe(500_000);
    expect(cleanAmount('n/a')).toBeNull();
    expect(cleanAmount('-5')).toBeNull();
    expect(cleanDate('Tue, 01 Dec 2026 12:00:00 +0100')).toBe('2026-12-01T11:00:00.000Z');
    expect(cleanDate('2026-12-01')).toBe('2026-12-01T00:00:00.000Z');
    expect(cleanDate('soon')).toBeNull();
  });
});
