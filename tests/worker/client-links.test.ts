// Resend and Copy client link on a sent quote's and a sent invoice's page
// (issue 31, decision 047), as a browser without JavaScript posts them: Resend
// queues the mail again (one per press, five an hour), the jobs runner sends it
// with a fresh link; Copy client link shows a new link on SITE_URL, whatever
// host the post came through, and the link before it is a 404 at once.
// Auditors and outsiders are refused.
import { env, exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../support/confirmation-mail';
import { pageText, Visitor } from './support/app';
import { readable } from './support/module-screens';
import { serviceClient } from './support/backend';
import { freshTeam, joinAs } from './support/settings';

type Team = Awaited<ReturnType<typeof freshTeam>>;
let team: Team;
let member: { visitor: Visitor; email: string };

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
const runCron = () => worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });

beforeAll(async () => {
  team = await freshTeam();
  member = await joinAs(team.accountId, 'member');
}, 120_000);

interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** The mails to this address, once the runner has sent at least `count` of them. */
async function mailsTo(email: string, count: number): Promise<Mail[]> {
  let mails: Mail[] = [];
  for (let tries = 0; tries < 40 && mails.length < count; tries++) {
    await runCron();
    mails = ((await readOutbox(env.SUPABASE_URL)) as unknown as Mail[]).filter((mail) => mail.to === email);
  }
  return mails;
}

const tokenIn = (text: string, prefix: 'q' | 'i') => new RegExp(`/${prefix}/([A-Za-z0-9_-]{43})`).exec(text)?.[1];

/** The new link the page shows in its read-only field. */
function shownLink(html: string): string | undefined {
  const input = /<input[^>]*id="client-link"[^>]*>/.exec(html)?.[0];
  return input ? /value="([^"]*)"/.exec(input)?.[1] : undefined;
}

async function sentQuote(email: string): Promise<string> {
  const db = serviceClient();
  const { data: contact, error: contactError } = await db
    .from('contacts')
    .insert({ account_id: team.accountId, name: 'Quinn Buyer', email, company: 'Buyer Co' })
    .select('id')
    .single();
  if (contactError) throw contactError;
  const { data: quote, error } = await db
    .from('quotes')
    .insert({ account_id: team.accountId, contact_id: contact.id, status: 'draft', expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() })
    .select('id')
    .single();
  if (error) throw error;
  const item = await db.from('quote_items').insert({ quote_id: quote.id, description: 'Starter line', qty: 1, unit_price: 1000, total: 1000 });
  if (item.error) throw item.error;
  expect((await team.admin.visitor.post(`/quotes/${quote.id}`, { intent: 'send' })).status).toBe(302);
  return quote.id as string;
}

async function sentInvoice(email: string): Promise<string> {
  const created = await team.admin.visitor.post('/invoices?new', {
    client_name: 'Ivy Client', client_email: email, description: 'Consulting', unit_price: '100', quantity: '1',
    currency: 'USD', due_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), notes: '',
  });
  expect(created.status).toBe(302);
  const { data } = await serviceClient().from('invoices').select('id').eq('client_email', email).single();
  const id = data!.id as string;
  expect((await team.admin.visitor.post(`/invoices/${id}`, { intent: 'send' })).status).toBe(302);
  return id;
}

const kinds = [
  { name: 'quote', prefix: 'q', make: sentQuote, path: (id: string) => `/quotes/${id}` },
  { name: 'invoice', prefix: 'i', make: sentInvoice, path: (id: string) => `/invoices/${id}` },
] as const;

for (const kind of kinds) {
  describe(`a sent ${kind.name}'s page`, () => {
    it('Resend mails it again with a new link (the old one a 404), once per press, five times an hour', async () => {
      const email = `resend-${crypto.randomUUID().slice(0, 8)}@client.test`;
      const id = await kind.make(email);
      const page = kind.path(id);
      const [first] = await mailsTo(email, 1);
      const firstToken = tokenIn(first.text, kind.prefix)!;
      expect((await new Visitor().get(`/${kind.prefix}/${firstToken}`)).status).toBe(200);

      const html = await pageText(await member.visitor.get(page));
      expect(html).toContain('>Resend<');
      expect(html).toContain('>Copy client link<');
      const request = /name="request" value="([0-9a-f-]{36})"/.exec(html)?.[1];
      expect(request).toBeDefined();
      const resent = await member.visitor.post(page, { intent: 'resend', request: request! });
      expect(resent.status).toBe(302);
      expect(readable(await pageText(await member.visitor.follow(resent)))).toContain(`Sent again to ${email}`);
      // The same press posted twice (a double click, a reload): one mail.
      expect((await member.visitor.post(page, { intent: 'resend', request: request! })).status).toBe(302);
      const mails = await mailsTo(email, 2);
      await runCron();
      expect(((await readOutbox(env.SUPABASE_URL)) as unknown as Mail[]).filter((mail) => mail.to === email)).toHaveLength(2);
      const secondToken = tokenIn(mails[1].text, kind.prefix)!;
      expect(mails[1].text).toContain(`${env.SITE_URL}/${kind.prefix}/${secondToken}`);
      expect(secondToken).not.toBe(firstToken);
      expect((await new Visitor().get(`/${kind.prefix}/${firstToken}`)).status).toBe(404);
      expect((await new Visitor().get(`/${kind.prefix}/${secondToken}`)).status).toBe(200);

      for (let i = 0; i < 4; i++) {
        expect((await team.admin.visitor.post(page, { intent: 'resend', request: crypto.randomUUID() })).status).toBe(302);
      }
      const sixth = await team.admin.visitor.post(page, { intent: 'resend', request: crypto.randomUUID() });
      expect(sixth.status).toBe(429);
      expect(readable(await pageText(sixth))).toContain('5 times in the last hour');
    });

    it('Copy client link shows a new link on SITE_URL, whatever the host; the link before it is a 404; audited without the token', async () => {
      const email = `copy-${crypto.randomUUID().slice(0, 8)}@client.test`;
      const id = await kind.make(email);
      const page = kind.path(id);
      const [mail] = await mailsTo(email, 1);
      const mailed = tokenIn(mail.text, kind.prefix)!;

      const evil = 'https://pay-opshub.evil.example';
      const copied = await exports.default.fetch(
        new Request(`${evil}${page}`, {
          method: 'POST',
          body: new URLSearchParams({ intent: 'copy_link' }),
          headers: { Origin: evil, Cookie: member.visitor.cookieHeader, 'X-Forwarded-Host': 'pay-opshub.evil.example' },
          redirect: 'manual',
        }),
      );
      expect(copied.status).toBe(200);
      expect(copied.headers.get('Cache-Control')).toContain('no-store');
      const html = await pageText(copied);
      const link = shownLink(html);
      expect(link).toMatch(new RegExp(`^${env.SITE_URL}/${kind.prefix}/[A-Za-z0-9_-]{43}$`));
      expect(html).not.toContain('evil.example/');
      expect(readable(html)).toContain('The link sent before no longer works.');
      const token = link!.split('/').at(-1)!;
      expect((await new Visitor().get(`/${kind.prefix}/${mailed}`)).status).toBe(404);
      expect((await new Visitor().get(`/${kind.prefix}/${token}`)).status).toBe(200);

      const { data: audit } = await serviceClient().from('audit_logs').select('*').eq('resource_id', id);
      const renewed = (audit ?? []).filter((row) => row.action === `${kind.name}_link_renewed`);
      expect(renewed).toHaveLength(1);
      const { data: user } = await serviceClient().from('users').select('id').eq('email', member.email).single();
      expect(renewed[0].user_id).toBe(user!.id);
      expect(JSON.stringify(audit)).not.toContain(token);
      expect(JSON.stringify(audit)).not.toContain(mailed);
      // The history on the page names who did it.
      expect(readable(await pageText(await team.admin.visitor.get(page)))).toMatch(/Link renewed by Member Member/);
    });

    it('refuses auditors and outsiders: nothing queued, the link unchanged', async () => {
      const email = `refused-${crypto.randomUUID().slice(0, 8)}@client.test`;
      const id = await kind.make(email);
      const page = kind.path(id);
      const [mail] = await mailsTo(email, 1);
      const mailed = tokenIn(mail.text, kind.prefix)!;
      const auditorPage = await pageText(await team.auditor.visitor.get(page));
      expect(auditorPage).not.toContain('>Copy client link<');
      for (const who of [team.auditor, team.client, team.supplier]) {
        const forms: Record<string, string>[] = [{ intent: 'resend', request: crypto.randomUUID() }, { intent: 'copy_link' }];
        for (const form of forms) {
          const response = await who.visitor.post(page, form);
          // Refused (403, 404), or an outsider sent to their own place (a redirect away from the page).
          expect([302, 403, 404], `${form.intent}`).toContain(response.status);
          if (response.status === 302) expect(response.headers.get('Location')).not.toBe(page);
          expect(shownLink(await pageText(response))).toBeUndefined();
        }
      }
      expect((await new Visitor().get(`/${kind.prefix}/${mailed}`)).status).toBe(200);
      const { data: jobs } = await serviceClient().from('jobs').select('idempotency_key').eq('subject_id', id);
      expect((jobs ?? []).filter((job) => job.idempotency_key.includes('resend'))).toEqual([]);
    });
  });
}
