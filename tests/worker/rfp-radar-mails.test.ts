// Mails from the tender radar through the real Worker's jobs runner (issue 38; decision 092), the feed being
// the local backend's demo feed (/_demo/tenders.json, allowed by FEED_ALLOW_HOSTS as npm start allows it):
// the feed run that brings a notice scoring at least the search's alert score mails the search's owner
// once; the next run mails nothing; the daily digest mails the day's other matches once. Each tick runs
// at a clock of this file's own (hours ahead), so its periodic jobs are its alone.
import { env, exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpFreshAdmin } from './support/app';
import { accountOf, outbox, serviceClient } from './support/backend';

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const MINUTE = 60_000;
// Tomorrow at 01:00 UTC, whatever the hour the tests run at: both feed runs (01:00 and 02:01) come before the
// daily digest's 07:00 UTC, which a clock of "now + 2 h" crossed when the tests ran from 05:00 UTC on.
const feedClock = (Math.floor(Date.now() / 86_400_000) + 1) * 86_400_000 + 3_600_000 + 20_000;
// The digest lists what was found the day before its own (the database's day: today): tomorrow at 08:00 UTC.
const digestClock = (Math.floor(Date.now() / 86_400_000) + 1) * 86_400_000 + 8 * 3_600_000 + 20_000;

let email: string;
let searchId: string;
let sourceId: string;
let minute = 0;

/** Ticks the runner from `at`, a minute further each time (a new periodic key), until `settled` holds. */
async function tickUntil(at: number, settled: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    await worker.scheduled({ cron: '* * * * *', scheduledTime: at + minute++ * MINUTE });
    if (await settled()) return;
    await sleep(200);
  }
  throw new Error(`not settled within 60 s: ${what}`);
}

const mails = async (subject: RegExp) => (await outbox()).filter((m) => m.to === email && subject.test(m.subject));
const mailJobs = async () => {
  const { data } = await serviceClient().from('jobs').select('status').eq('kind', 'mail.send').eq('subject_id', searchId);
  return data ?? [];
};
const allSent = async () => (await mailJobs()).every((job) => job.status === 'done');

beforeAll(async () => {
  ({ email } = await signUpFreshAdmin());
  const { accountId, userId } = await accountOf(email);
  const service = serviceClient();
  const source = await service.from('tender_sources')
    .insert({ account_id: accountId, name: 'Demo feed', url: `${env.SUPABASE_URL}/_demo/tenders.json`, format: 'ocds', created_by: userId })
    .select('id').single();
  if (source.error) throw new Error(source.error.message);
  sourceId = source.data.id;
  const search = await service.from('tender_searches').insert({
    account_id: accountId, name: 'IT and cloud', keywords: ['cloud hosting', 'kubernetes', 'software'], cpv_codes: ['72000000', '48000000'],
    countries: ['GB'], min_value: 10_000_000, min_currency: 'GBP', horizon_days: 90, created_by: userId,
  }).select('id').single();
  if (search.error) throw new Error(search.error.message);
  searchId = search.data.id;
});

describe('mails from the radar, by the jobs runner', () => {
  it('mails a high-scoring notice once when the feed brings it, and nothing on the next run', async () => {
    const alert = /^Tender match for "IT and cloud": /;
    await tickUntil(feedClock, async () => (await mails(alert)).length > 0 && (await allSent()), 'the alert mail');
    const [mail] = await mails(alert);
    expect(mail.subject).toBe('Tender match for "IT and cloud": Cloud hosting and managed Kubernetes platform');
    expect(mail.text).toContain('Fit 83/100: keywords: 2 of 3; CPV 72000000 matches; value above minimum; deadline in');
    // An hour on, the source is fetched again (its ETag answers 304): no notice is mailed twice.
    const second = feedClock + 61 * MINUTE;
    minute = 0;
    await tickUntil(second, async () => {
      const { data } = await serviceClient().from('tender_sources').select('last_fetched_at').eq('id', sourceId).single();
      return Date.parse(data!.last_fetched_at!) >= second && (await allSent());
    }, 'the second feed run');
    expect(await mails(alert)).toHaveLength(1);
    expect(await mailJobs()).toHaveLength(1);
  });

  it('mails the day\'s other matches in one digest, once', async () => {
    const digest = /^Tender radar digest for "IT and cloud"/;
    minute = 0;
    await tickUntil(digestClock, async () => (await mails(digest)).length > 0 && (await allSent()), 'the digest');
    await worker.scheduled({ cron: '* * * * *', scheduledTime: digestClock + 30 * MINUTE });
    const sent = await mails(digest);
    expect(sent).toHaveLength(1);
    expect(sent[0].subject).toBe('Tender radar digest for "IT and cloud": 3 new matches');
    expect(sent[0].text).toContain('- Logistics software for warehouse operations (NHS Supply Chain)');
    expect(sent[0].text).toContain('IT service desk and field support');
    expect(sent[0].text).not.toContain('Kubernetes');
    expect(await mailJobs()).toHaveLength(2);
  });
});
