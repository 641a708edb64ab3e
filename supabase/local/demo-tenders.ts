// The demo tender feed (issue 38; decision 092): the local backend serves a small OCDS release package at
// /_demo/tenders.json, shaped as the UK's Contracts Finder publishes (decision 065), so the demo account's
// radar fills on the first feed run of `npm start` without reaching the internet. Deadlines count from the
// day the demo source was seeded (demoFeedAnchor), so they stay put from one fetch to the next (a moving
// deadline would read as an amendment every day) and are weeks away when the demo data is fresh. The seed's source names
// http://127.0.0.1:54321/_demo/tenders.json; a backend on another port points the source at itself when it
// starts (as demo-smtp.ts does for the SMTP integration). The Worker may fetch it only because the local
// stack names this backend in FEED_ALLOW_HOSTS; production sets no allow list and refuses loopback feeds.
import type { Db } from './db.ts';

export const DEMO_FEED_PATH = '/_demo/tenders.json';
export const DEMO_FEED_NAME = 'Contracts Finder (demo)';
const DEMO_ADMIN_EMAIL = 'demo@opshub.test';

const day = (today: Date, offset: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + offset, 12)).toISOString();

interface DemoNotice {
  id: string;
  title: string;
  buyer: string;
  cpv: string;
  amount: number;
  days: number;
}

const NOTICES: DemoNotice[] = [
  { id: '0001', title: 'Cloud hosting and managed Kubernetes platform', buyer: 'Leeds City Council', cpv: '72200000', amount: 450_000, days: 28 },
  { id: '0002', title: 'Logistics software for warehouse operations', buyer: 'NHS Supply Chain', cpv: '48100000', amount: 820_000, days: 35 },
  { id: '0003', title: 'IT service desk and field support', buyer: 'Bristol City Council', cpv: '72500000', amount: 300_000, days: 21 },
  { id: '0004', title: 'Data centre maintenance services', buyer: 'Ministry of Justice', cpv: '50312000', amount: 1_200_000, days: 45 },
  { id: '0005', title: 'School catering services', buyer: 'Kent County Council', cpv: '55524000', amount: 2_400_000, days: 60 },
  { id: '0006', title: 'Compliance management system', buyer: 'Financial Conduct Authority', cpv: '48000000', amount: 260_000, days: 14 },
];

/** The package as served on `today`: an OCDS release package (uri, publishedDate, releases[] with ocid, buyer, tender). */
export function demoTenderPackage(today = new Date()): Record<string, unknown> {
  return {
    uri: 'https://www.contractsfinder.service.gov.uk/Published/Notices/OCDS/Search',
    version: '1.1',
    publishedDate: day(today, 0),
    publisher: { name: 'OpsHub demo feed (Contracts Finder format)' },
    releases: NOTICES.map((n) => ({
      ocid: `ocds-b5fd17-demo-${n.id}`,
      id: `ocds-b5fd17-demo-${n.id}-tender`,
      date: day(today, -1),
      tag: ['tender'],
      initiationType: 'tender',
      buyer: { id: `GB-DEMO-${n.id}`, name: n.buyer },
      parties: [{ id: `GB-DEMO-${n.id}`, name: n.buyer, roles: ['buyer'], address: { countryName: 'United Kingdom' } }],
      tender: {
        id: n.id,
        title: n.title,
        status: 'active',
        value: { amount: n.amount, currency: 'GBP' },
        tenderPeriod: { endDate: day(today, n.days) },
        items: [{ id: '1', classification: { scheme: 'CPV', id: n.cpv } }],
        documents: [{ id: '1', url: `https://www.contractsfinder.service.gov.uk/notice/demo-${n.id}` }],
      },
    })),
  };
}

/** The response to GET /_demo/tenders.json: the package, with an ETag of its anchor day (a fetch again answers 304). */
export function demoTenderResponse(request: Request, today = new Date()): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { Allow: 'GET' } });
  const etag = `"demo-${day(today, 0).slice(0, 10)}"`;
  if (request.headers.get('If-None-Match') === etag) return new Response(null, { status: 304, headers: { ETag: etag } });
  return new Response(JSON.stringify(demoTenderPackage(today)), {
    status: 200,
    headers: { 'Content-Type': 'application/json', ETag: etag, 'Cache-Control': 'no-cache' },
  });
}

/**
 * Points the seeded demo source at this backend's own feed (`baseUrl`), when it names another backend port
 * (only the seed's source as the seed made it: the demo account's, on 127.0.0.1). Returns whether it moved.
 */
export async function pointDemoFeedAt(db: Db, baseUrl: string): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>(
    `select to_regclass('public.tender_sources') is not null and to_regclass('public.users') is not null as present`,
  );
  if (!rows[0]?.present) return false;
  const updated = await db.query(
    `update public.tender_sources s set url = $3
      where s.name = $1 and s.url ~ '^http://127\\.0\\.0\\.1:[0-9]+/_demo/tenders\\.json$' and s.url <> $3
        and s.account_id = (select u.account_id from public.users u where u.email = $2)
      returning s.id`,
    [DEMO_FEED_NAME, DEMO_ADMIN_EMAIL, `${baseUrl}${DEMO_FEED_PATH}`],
  );
  return updated.rows.length > 0;
}

/** The day the demo source was seeded (its created_at), else today: what the demo feed's deadlines count from. */
export async function demoFeedAnchor(db: Db): Promise<Date> {
  try {
    const { rows } = await db.query<{ created_at: Date | string }>(
      `select s.created_at from public.tender_sources s
        where s.name = $1 and s.account_id = (select u.account_id from public.users u where u.email = $2)`,
      [DEMO_FEED_NAME, DEMO_ADMIN_EMAIL],
    );
    return rows[0] ? new Date(rows[0].created_at) : new Date();
  } catch {
    return new Date(); // a fixture schema without the radar's tables
  }
}
