// The tender radar through the real Worker and backend (issue 38; decision 079), all by plain posts (no
// JavaScript): the Responses and Radar tabs by URL, a feed and a saved search added on the settings page
// (a loopback feed refused, as in production; a bad CPV code answered under its field), the matches of the
// search with their fit score and reasons (notices stored as the feed job stores them), Pursue opening the
// New RFP Response dialog filled in from the notice and linking the bid made, Dismiss hiding a notice with
// its reason. (The feed job itself against a feed server: tests/db/tender-feed-job.test.ts.)
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpFreshAdmin, type Visitor } from './support/app';
import { accountOf, serviceClient } from './support/backend';
import { control, expectRefused, page, readable } from './support/module-screens';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const SETTINGS = '/rfp/radar/settings';

let visitor: Visitor;
let accountId: string;

beforeAll(async () => {
  const fresh = await signUpFreshAdmin();
  visitor = fresh.visitor;
  accountId = (await accountOf(fresh.email)).accountId;
});

describe('the radar', () => {
  it('is a tab of /rfp, and says what to add first on an account without feeds', async () => {
    const responses = await page(visitor, '/rfp');
    expect(responses).toMatch(/href="\/rfp\/radar"[^>]*>Radar</);
    const radar = readable(await page(visitor, '/rfp/radar'));
    expect(radar).toContain('No feed yet');
  });

  it('adds a feed and a saved search by plain posts, refusing a loopback feed and a bad CPV code', async () => {
    const source = { intent: 'add-source', name: 'Contracts Finder', url: 'http://127.0.0.1:8080/feed', format: 'ocds' };
    await expectRefused(visitor, SETTINGS, source, 'url', 'Use the address of a public feed');
    const added = await visitor.post(SETTINGS, { ...source, url: 'https://www.contractsfinder.service.gov.uk/Published/Notices/OCDS/Search' });
    expect(added.status).toBe(302);
    const search = {
      intent: 'add-search', name: 'Hosting', keywords: 'cloud hosting, kubernetes', cpv_codes: '72000000', countries: 'gb',
      min_value: '10000', min_currency: 'GBP', horizon_days: '90',
    };
    await expectRefused(visitor, SETTINGS, { ...search, cpv_codes: '7200' }, 'cpv_codes', 'A CPV code has eight digits: 7200');
    expect((await visitor.post(SETTINGS, search)).status).toBe(302);
    const settings = readable(await page(visitor, SETTINGS));
    expect(settings).toContain('Contracts Finder');
    expect(settings).toContain('Keywords: cloud hosting, kubernetes · CPV 72000000 · Buyers in GB · At least £10,000.00');
    // A search mails a new match at once from score 80 unless its form says otherwise (decision 092).
    expect(settings).toContain('Deadline within 90 days · Mailed at once from score 80');
  });

  it('lists matches with score and reasons; Pursue makes a prefilled bid linked to the notice; Dismiss hides one', async () => {
    const service = serviceClient();
    const { data: source } = await service.from('tender_sources').select('id').eq('account_id', accountId).single();
    const notice = (id: string, title: string, cpv = '72200000') => ({
      sourceId: id, title, buyer: 'Leeds City Council', country: 'GB', cpv: [cpv], value: 5_000_000, currency: 'GBP',
      deadline: `${day(30)}T12:00:00.000Z`, url: `https://www.contractsfinder.service.gov.uk/notice/${id}`, raw: {},
    });
    const { error } = await service.rpc('ingest_tender_notices', {
      p_source: source!.id, p_notices: [notice('n-1', 'Cloud hosting for schools'), notice('n-2', 'Cloud hosting <b>archive</b>'), notice('n-3', 'Catering', '55520000')],
    });
    expect(error).toBeNull();
    const radar = readable(await page(visitor, '/rfp/radar'));
    expect(radar).toContain('Cloud hosting for schools');
    expect(radar).toContain('Why: keywords: 1 of 2; CPV 72000000 matches; value above minimum; deadline in 30 days');
    expect(radar).not.toContain('Catering');
    const { data: opportunities } = await service.from('opportunities').select('id, notice_id').eq('account_id', accountId).order('notice_id');
    const [first, second] = opportunities!;

    // Pursue: the dialog filled in from the notice, in its currency.
    const dialog = await page(visitor, `/rfp?new&opportunity=${first.id}`);
    expect(control(dialog, 'title')).toContain('value="Cloud hosting for schools"');
    expect(control(dialog, 'company')).toContain('value="Leeds City Council"');
    expect(control(dialog, 'value')).toContain('value="50000.00"');
    expect(readable(dialog)).toContain('Value (GBP)');
    const pursued = await visitor.post(`/rfp?new&opportunity=${first.id}`, {
      opportunity_id: first.id, currency: 'GBP', title: 'Cloud hosting for schools', company: 'Leeds City Council',
      contact_email: 'procurement@leeds.test', value: '50000.00', deadline: day(30), proposal: 'Our hosting proposal.', additional_notes: '',
    });
    expect(pursued.status).toBe(302);
    const { data: linked } = await service.from('opportunities').select('pursued_rfp_id').eq('id', first.id).single();
    const { data: rfp } = await service.from('rfps').select('currency, value').eq('id', linked!.pursued_rfp_id!).single();
    expect(rfp).toEqual({ currency: 'GBP', value: 5_000_000 });
    expect(await page(visitor, '/rfp/radar')).toContain(`href="/rfp/${linked!.pursued_rfp_id}"`);

    // Dismiss, with a reason: gone from the radar.
    expect((await visitor.post('/rfp/radar', { intent: 'dismiss', id: second.id, reason: 'Archive work only' })).status).toBe(302);
    expect(readable(await page(visitor, '/rfp/radar'))).not.toContain('Cloud hosting archive');
    const { data: dismissed } = await service.from('opportunities').select('dismissed, dismiss_reason').eq('id', second.id).single();
    expect(dismissed).toEqual({ dismissed: true, dismiss_reason: 'Archive work only' });
    expect((await visitor.post('/rfp/radar', { intent: 'dismiss', id: 'not-an-id' })).status).toBe(400);
  });
});
