// RFP in Chromium (issue 38), JavaScript on and off, as a new account: the bid pipeline (the New RFP Response
// dialog, the bid's page, a status change, the go/no-go decision with its reasons, a document attached by a
// multipart form, an answer of the library found by a GET search and added to the proposal) and the radar: an OCDS feed served by a local HTTP server this file starts, added with a
// saved search in the radar's settings, the feed job run (the Cron Trigger's handler), the opportunity shown
// with its fit score and reasons, Pursue making a bid from it, Dismiss hiding another with a reason.
// The app server is this file's own: the feed job may reach this loopback feed only when the local stack
// allows it by name (FEED_ALLOW_HOSTS), as production never does.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, startAppServer, type AppServer } from './support/app-server.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';
import { signUpThroughForm } from './support/people.ts';

const browser = browserForFile();
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

let app: AppServer;
let feed: Server;
let feedUrl: string;

/** An OCDS release package of two hosting tenders, their titles carrying the path's tag. */
function ocdsPackage(tag: string) {
  const release = (n: number, title: string, amount: number) => ({
    ocid: `ocds-e2e-${tag}-${n}`,
    date: new Date().toISOString(),
    uri: `https://www.find-tender.service.gov.uk/Notice/${tag}-${n}`,
    buyer: { id: 'GB-1', name: 'Harbour Borough Council' },
    parties: [{ id: 'GB-1', name: 'Harbour Borough Council', roles: ['buyer'], address: { countryName: 'United Kingdom' } }],
    tender: {
      title,
      value: { amount, currency: 'GBP' },
      tenderPeriod: { endDate: `${day(30)}T12:00:00Z` },
      items: [{ id: '1', classification: { scheme: 'CPV', id: '72000000' } }],
    },
  });
  return {
    uri: `https://example.test/${tag}.json`, publishedDate: new Date().toISOString(), version: '1.1',
    releases: [release(1, `Cloud hosting ${tag}`, 250_000), release(2, `Hosting support desk ${tag}`, 40_000)],
  };
}

beforeAll(async () => {
  feed = createServer((request, response) => {
    const tag = /^\/feed-([a-z0-9]+)\.json$/.exec(request.url ?? '')?.[1];
    if (!tag) return void response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(ocdsPackage(tag)));
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  const address = feed.address();
  const feedPort = typeof address === 'object' && address ? address.port : 0;
  feedUrl = `http://127.0.0.1:${feedPort}`;
  const backendUrl = inject('backendUrl');
  const port = await freePort();
  app = await startAppServer({
    SUPABASE_URL: backendUrl,
    SUPABASE_ANON_KEY: inject('anonKey'),
    SUPABASE_SERVICE_ROLE_KEY: inject('serviceRoleKey'),
    MAIL_API_URL: `${backendUrl}/_mail`,
    SITE_URL: `http://127.0.0.1:${port}`,
    FEED_ALLOW_HOSTS: `127.0.0.1:${feedPort}`,
  }, port);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => feed?.close(resolve));
});

/**
 * Runs the jobs runner until the radar shows `title`: each tick at its own minute ahead (the feed job is
 * queued once a minute, and other files tick the current one), so a tick always runs the feeds.
 */
async function runFeedsUntil(check: () => Promise<boolean>) {
  const start = Date.now() + Math.floor(Math.random() * 100_000) * 60_000;
  for (let tick = 0; tick < 10; tick++) {
    const response = await fetch(`${app.url}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*&time=${start + tick * 60_000}`);
    expect(response.ok).toBe(true);
    if (await check()) return;
  }
  throw new Error('the feed job never stored the feed\'s notices');
}

describe('rfp', () => {
  for (const javaScript of [true, false]) {
    it(`takes a bid through the pipeline and pursues and dismisses tenders from a feed (JavaScript ${javaScript ? 'on' : 'off'})`, async () => {
      const tag = crypto.randomUUID().replace(/-/g, '').slice(0, 8);
      const { page, context, errors } = await newVisitor(browser(), { javaScript, baseURL: app.url });
      page.setDefaultTimeout(20_000);
      await signUpThroughForm(page, { first: 'Rita', last: 'Tender', label: `e2e-rfp-${javaScript ? 'js' : 'nojs'}` });

      // The New RFP Response dialog, then the bid's page.
      await page.goto('/rfp');
      await page.getByRole('link', { name: 'New RFP Response' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await dialog.getByLabel('RFP title').fill(`Port cranes ${tag}`);
      await dialog.getByLabel('Company').fill('Port of Oslo');
      await dialog.getByLabel('Contact email').fill('tenders@port.test');
      await dialog.getByLabel('Value (USD)').fill('250000');
      await dialog.getByLabel('Deadline').fill(day(5));
      await dialog.getByLabel('Proposal').fill('Two cranes, delivered and serviced.');
      await dialog.getByRole('button', { name: 'Create Response' }).click();
      await waitForToast(page, 'RFP response created successfully!');
      await page.getByRole('link', { name: `Port cranes ${tag}` }).first().click();
      await page.getByRole('heading', { level: 1, name: `Port cranes ${tag}` }).waitFor();
      await page.getByText('5 days left').first().waitFor();
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);

      await page.getByLabel('Status').selectOption('Submitted');
      await page.getByRole('button', { name: 'Change Status' }).click();
      await waitForToast(page, 'Status changed');
      await page.getByLabel('Decision').selectOption('go');
      await page.getByLabel('Reasons').fill(`Known buyer, strong references ${tag}`);
      await page.getByRole('button', { name: 'Record Decision' }).click();
      await waitForToast(page, 'Decision recorded');
      await page.getByText(`Known buyer, strong references ${tag}`).first().waitFor();

      // A document, by a multipart form (no script needed).
      const dir = mkdtempSync(join(tmpdir(), 'bid-'));
      writeFileSync(join(dir, 'method-statement.txt'), `Method statement ${tag}\n`);
      await page.getByLabel(/^File \(/).setInputFiles(join(dir, 'method-statement.txt'));
      await page.getByRole('button', { name: 'Attach File' }).click();
      await waitForToast(page, 'method-statement.txt attached');
      await page.getByRole('list', { name: 'Documents' }).getByRole('link', { name: 'method-statement.txt' }).waitFor();

      // The answer library: an answer added, then found from the bid's page (a GET search) and added to its proposal.
      const bidPage = new URL(page.url()).pathname;
      await page.getByRole('link', { name: 'Manage the library' }).click();
      await page.getByLabel('Title').fill(`Insurance ${tag}`);
      await page.getByLabel('Answer', { exact: true }).fill(`Professional indemnity of GBP 5,000,000 ${tag}.`);
      await page.getByLabel('Tags (optional)').fill('Insurance, Liability');
      await page.getByRole('button', { name: 'Add Answer' }).click();
      await waitForToast(page, 'Answer added to the library');
      await page.goto(bidPage);
      await page.getByLabel('Search answers').fill('indemn');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL(/answers=indemn/);
      await page.getByRole('list', { name: 'Answers found' }).getByRole('button', { name: new RegExp(`^Add to proposal.*Insurance ${tag}$`) }).click();
      await waitForToast(page, 'Answer added to the proposal');
      await page.getByText(`Two cranes, delivered and serviced. Professional indemnity of GBP 5,000,000 ${tag}.`, { exact: false }).first().waitFor();
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);

      // The radar: a feed and a saved search, then the feed job.
      await page.goto('/rfp/radar/settings');
      await page.getByLabel('Feed name').fill('Find a Tender (local)');
      await page.getByLabel('Format').selectOption('ocds');
      await page.getByLabel('Feed address').fill(`${feedUrl}/feed-${tag}.json`);
      await page.getByRole('button', { name: 'Add Feed' }).click();
      await waitForToast(page, 'Feed saved');
      await page.getByLabel('Search name').fill('Hosting');
      await page.getByLabel('Keywords').fill('hosting');
      await page.getByLabel('CPV codes').fill('72000000');
      await page.getByRole('button', { name: 'Add Search' }).click();
      await waitForToast(page, 'Search saved');
      await runFeedsUntil(async () => {
        await page.goto('/rfp/radar');
        return (await page.getByText(`Cloud hosting ${tag}`).count()) > 0;
      });

      // Each with its fit score and the reasons for it.
      const matches = page.getByRole('list', { name: 'Matching Tenders' });
      const cloud = matches.getByRole('listitem').filter({ hasText: `Cloud hosting ${tag}` });
      await cloud.getByLabel(/^Fit score \d+ of 100$/).waitFor();
      await cloud.getByText(/Why: .*keywords: 1 of 1/).waitFor();
      await cloud.getByText(/72000000/).first().waitFor();
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);

      // Pursue: the dialog filled in from the notice; the bid made, the opportunity linked to it.
      await cloud.getByRole('link', { name: 'Pursue' }).click();
      const pursue = page.getByRole('dialog');
      await pursue.waitFor();
      expect(await pursue.getByLabel('RFP title').inputValue()).toBe(`Cloud hosting ${tag}`);
      expect(await pursue.getByLabel('Company').inputValue()).toBe('Harbour Borough Council');
      await pursue.getByLabel('Contact email').fill('procurement@harbour.test');
      await pursue.getByLabel('Proposal').fill('Managed hosting in two UK regions.');
      await pursue.getByRole('button', { name: 'Create Response' }).click();
      await waitForToast(page, 'RFP response created successfully!');
      await page.getByRole('link', { name: `Cloud hosting ${tag}` }).first().waitFor();
      await page.goto('/rfp/radar');
      await matches.getByRole('listitem').filter({ hasText: `Cloud hosting ${tag}` }).getByRole('link', { name: 'View Response' }).waitFor();

      // Dismiss, with a reason: it leaves the radar.
      const desk = matches.getByRole('listitem').filter({ hasText: `Hosting support desk ${tag}` });
      await desk.getByLabel(/^Reason for dismissing/).fill('Too small for us');
      await desk.getByRole('button', { name: 'Dismiss' }).click();
      await waitForToast(page, 'Opportunity dismissed');
      await page.getByText(`Cloud hosting ${tag}`).first().waitFor();
      expect(await page.getByText(`Hosting support desk ${tag}`).count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    }, 240_000);
  }
});
