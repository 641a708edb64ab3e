// Helpdesk SLAs and CSAT through the Worker (decision 075): Settings ›
// Helpdesk saved by an admin (refused with the reason when invalid), the
// inbox's SLA timer and its Breached / tag filters, tags and merge on a
// conversation, the breach job mailing once, and the CSAT link: resolve,
// the mail (read in the outbox), the public page without JavaScript, one answer.
import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, type Visitor } from './support/app';
import { outbox, serviceClient } from './support/backend';
import { demoAdmin, page, readable } from './support/module-screens';

const MAILBOX = 'demo-inbox@inbound.opshub.test';
const SECRET = 'local-demo-inbound-secret-0123456789abcdef';

async function receive(id: string, from: string, subject: string): Promise<string> {
  const body = JSON.stringify({ to: MAILBOX, from, subject, text: `About ${subject}`, message_id: `<${id}@sla.test>` });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${timestamp}.${body}`)));
  const signature = `sha256=${[...mac].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  const res = await exports.default.fetch(new Request(`${ORIGIN}/hooks/email`, {
    method: 'POST', body, headers: { 'Content-Type': 'application/json', 'X-OpsHub-Timestamp': timestamp, 'X-OpsHub-Signature': signature },
  }));
  expect(res.status).toBe(200);
  const { data } = await serviceClient().from('messages').select('conversation_id').eq('external_id', `<${id}@sla.test>`).single();
  return (data as { conversation_id: string }).conversation_id;
}

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };

async function runJobs(): Promise<void> {
  await worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
}

async function mailTo(to: string, subject: RegExp) {
  for (let i = 0; i < 40; i++) {
    await runJobs();
    const found = (await outbox()).filter((m) => m.to === to && subject.test(m.subject));
    if (found.length) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return [];
}

let admin: Visitor;
beforeAll(async () => {
  admin = await demoAdmin();
});

describe('helpdesk SLAs', () => {
  it('an admin sets business hours and targets; an invalid form is refused with the reason, nothing typed lost', async () => {
    const fields = {
      timezone: 'Europe/Paris', days: '1', opens_at: '09:00', closes_at: '08:00', holidays: '2026-12-25',
      first_response_urgent: '0.5', resolution_urgent: '4', first_response_high: '1', resolution_high: '8',
      first_response_normal: '4', resolution_normal: '24', first_response_low: '8', resolution_low: '40',
      next_response_urgent: '1', next_response_high: '2', next_response_normal: '4', next_response_low: '8',
    };
    const refused = await admin.post('/settings/helpdesk', fields);
    expect(refused.status).toBe(400);
    const html = readable(await refused.text());
    expect(html).toContain('Closing time must be after opening time');
    const saved = await admin.post('/settings/helpdesk', { ...fields, closes_at: '17:00' });
    expect(saved.status).toBe(302);
    const { data } = await serviceClient().from('helpdesk_business_hours').select('account_id, timezone, holidays').single();
    expect(data).toMatchObject({ timezone: 'Europe/Paris', holidays: ['2026-12-25'] });
    // Decision 083: the next response target per priority, in business minutes.
    const { data: urgent } = await serviceClient().from('helpdesk_sla_targets').select('next_response_minutes').eq('priority', 'urgent').eq('account_id', (data as { account_id: string }).account_id);
    expect(urgent).toEqual([{ next_response_minutes: 60 }]);
    expect(readable(await page(admin, '/settings/helpdesk'))).toContain('SLA targets (business hours)');
  });

  it('shows the SLA timer in the inbox, filters Breached and by tag, and mails a breach once', async () => {
    const id = await receive('sla-timer', 'tess@timer.test', 'Timer case');
    expect(readable(await page(admin, '/messages'))).toMatch(/Timer case[\s\S]*(Due in|Overdue by)/);
    expect((await admin.post(`/messages/${id}`, { intent: 'tags', tags: 'Billing, vip' })).status).toBe(302);
    expect(readable(await page(admin, '/messages?tag=vip'))).toContain('Timer case');
    expect(readable(await page(admin, '/messages?tag=nothing-like-it'))).not.toContain('Timer case');
    const refused = await admin.post(`/messages/${id}`, { intent: 'tags', tags: 'ok, <script>' });
    expect(refused.status).toBe(400);

    // Its first response deadline passed: Breached lists it, and the sweep mails the admins once.
    await serviceClient().from('conversations').update({ first_response_due_at: new Date(Date.now() - 60000).toISOString() }).eq('id', id);
    expect(readable(await page(admin, '/messages?sla=breached'))).toContain('Timer case');
    // The cron's sweep is queued once a minute (its key carries the minute): an earlier tick of this minute, in
    // another file, may have swept already. The test-only cron `force:<kind>` (decision 087) runs the sweep job now.
    await worker.scheduled({ cron: 'force:helpdesk.sla_sweep', scheduledTime: Date.now() });
    const mails = await mailTo('demo@opshub.test', /^SLA breached: first response on "Timer case"/);
    expect(mails).toHaveLength(1);
    await runJobs();
    expect((await outbox()).filter((m) => /^SLA breached: first response on "Timer case"/.test(m.subject))).toHaveLength(1);
    expect(readable(await page(admin, `/messages/${id}`))).toContain('First response breached');
  });

  it('merges a duplicate of the same contact; presence answers without a page', async () => {
    const first = await receive('merge-1', 'dora@dup.test', 'Duplicate one');
    const second = await receive('merge-2', 'dora@dup.test', 'Duplicate two');
    expect((await admin.post(`/messages/${first}`, { intent: 'replying' })).status).toBe(200);
    expect((await admin.post(`/messages/${first}`, { intent: 'merge', target_id: 'not-an-id' })).status).toBe(400);
    const merged = await admin.post(`/messages/${first}`, { intent: 'merge', target_id: second });
    expect(merged.status).toBe(302);
    expect(merged.headers.get('Location')).toContain(`/messages/${second}`);
    const { count } = await serviceClient().from('messages').select('id', { count: 'exact', head: true }).eq('conversation_id', second);
    expect(count).toBe(2);
    expect(readable(await page(admin, '/messages'))).not.toContain('Duplicate one');
  });
});

describe('CSAT', () => {
  it('resolving mails a rating link; the page rates once without JavaScript', async () => {
    const id = await receive('csat-1', 'cara@csat.test', 'Rate me');
    expect((await admin.post(`/messages/${id}`, { intent: 'resolve' })).status).toBe(302);
    const [mail] = await mailTo('cara@csat.test', /^How did we do\?/);
    expect(mail).toBeDefined();
    // The CSAT job run again, as after a runner that died before recording it done: no second mail, the link still works.
    const requeued = await serviceClient().from('jobs').update({ status: 'queued', run_at: new Date().toISOString() })
      .eq('kind', 'helpdesk.csat_request').eq('subject_id', id).select('id');
    expect(requeued.data).toHaveLength(1);
    await runJobs();
    await runJobs();
    expect((await outbox()).filter((m) => m.to === 'cara@csat.test')).toHaveLength(1);
    const link = /http\S+\/csat\/([A-Za-z0-9_-]{43})\?score=4/.exec(mail.text);
    expect(link).not.toBeNull();
    const token = link![1];
    const anonymous = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`${ORIGIN}${path}`, { redirect: 'manual', ...init }));

    const opened = await anonymous(`/csat/${token}?score=4`);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('Cache-Control')).toContain('no-store');
    const html = await opened.text();
    expect(html).toMatch(/value="4"[^>]*checked|checked[^>]*value="4"/);
    const form = (fields: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams(fields), headers: { Origin: ORIGIN } });
    expect((await anonymous(`/csat/${token}`, form({ score: '9' }))).status).toBe(400);
    const rated = await anonymous(`/csat/${token}`, form({ score: '4', comment: 'Quick help' }));
    expect(rated.status).toBe(303);
    const again = await anonymous(`/csat/${token}`, form({ score: '1' }));
    expect(again.status).toBe(409);
    expect(readable(await again.text())).toContain('You had already rated this conversation');
    expect((await anonymous(`/csat/${'x'.repeat(43)}`)).status).toBe(404);
    expect(readable(await page(admin, `/messages/${id}`))).toContain('4 of 5');

    // A conversation whose customer has waited for our next reply since a Monday weeks ago (decision 089): breached.
    const waiting = await receive('next-wait', 'nick@wait.test', 'Still waiting');
    expect((await serviceClient().from('conversations')
      .update({ first_responded_at: '2026-11-02T08:00:00Z', next_response_started_at: '2026-11-02T09:00:00Z' }).eq('id', waiting)).error).toBeNull();

    // The SLA report counts them, on the page and in its CSV.
    const report = readable(await page(admin, '/messages/report?days=7'));
    expect(report).toContain('Average first response');
    expect(report).toContain('Next responses breached');
    const csv = await admin.get('/messages/report.csv?days=7');
    expect(csv.headers.get('Content-Type')).toContain('text/csv');
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe('Agent,Priority,Conversations,First response met %,Next response met %,Next responses met,Next responses breached,Resolution met %,Average first response (minutes),CSAT answers,CSAT average');
    // Unassigned, normal: at least that breached wait, so its next responses are met in less than 100%.
    expect(text).toMatch(/\r\nUnassigned,normal,\d+,[^,]*,\d{1,2}%,\d+,[1-9]\d*,/);
    expect(text).toMatch(/,4(\.0+)?\r\n|,4\.\d+\r\n/);
  });
});
