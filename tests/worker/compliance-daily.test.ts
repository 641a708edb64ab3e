// The compliance daily job through the real jobs runner (issue 37): a review
// due in 7 days and one due today mail their owner once each (the outbox of the
// local backend), a second and third run mail nothing more, the due item is
// Action Required with one review_due event.
import { env, exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../support/confirmation-mail';
import { signUpFreshAdmin } from './support/app';
import { accountOf, serviceClient } from './support/backend';

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
const runCron = (at = Date.now()) => worker.scheduled({ cron: '* * * * *', scheduledTime: at });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

let email: string;
let ids: { soon: string; today: string };
beforeAll(async () => {
  const fresh = await signUpFreshAdmin();
  email = fresh.email;
  const { accountId, userId } = await accountOf(email);
  const insert = async (title: string, first: string) => {
    const { data, error } = await serviceClient().from('compliance_items').insert({
      account_id: accountId, owner_id: userId, title, responsible_team: 'Security', description: 'Daily job', first_review_date: first, frequency: 'annual',
    }).select('id').single();
    if (error) throw new Error(error.message);
    return data.id as string;
  };
  ids = { soon: await insert('Firewall review', day(7)), today: await insert('Backup restore test', day(0)) };
});

describe('the compliance daily job', () => {
  it('mails the owner 7 days before and on the day, each once; the due item becomes Action Required with review_due', async () => {
    const mails = async () => ((await readOutbox(env.SUPABASE_URL)) as unknown as { to: string; subject: string }[]).filter((m) => m.to === email && m.subject.startsWith('Review due'));
    for (let tries = 0; tries < 40 && (await mails()).length < 2; tries++) await runCron();
    expect((await mails()).map((m) => m.subject).sort()).toEqual(['Review due in 7 days: Firewall review', 'Review due today: Backup restore test']);
    await runCron(Date.now() + 60_000);
    await runCron(Date.now() + 120_000);
    expect(await mails()).toHaveLength(2);
    const { data: item } = await serviceClient().from('compliance_items').select('status').eq('id', ids.today).single();
    expect(item!.status).toBe('Action Required');
    const { data: events } = await serviceClient().from('events').select('kind').eq('resource_id', ids.today).eq('kind', 'review_due');
    expect(events).toHaveLength(1);
  });
});
