// Both parties told (issue 31, decision 047), through the real Worker and
// jobs runner, read back from the local outbox: after signing, the signer gets
// the signed PDF with its certificate page; when the client declines, the
// quote's owner and the account's admins get the reason. Each exactly once,
// however often the runner ticks.
import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { uniqueEmail } from '../support/accounts';
import { pageText, signUpFreshAdmin, Visitor } from './support/app';
import { readable } from './support/module-screens';
import { accountOf, outbox, serviceClient } from './support/backend';
import { joinAs } from './support/settings';

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
const runCron = () => worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
const LINK = /http:\/\/ops-hub\.test\/q\/([A-Za-z0-9_-]{43})/;

let accountId: string;
let adminEmail: string;
let adminVisitor: Visitor;
let owner: { email: string; userId: string };
let auditorEmail: string;
let ipCounter = 0;
const freshIp = () => `198.51.101.${(ipCounter += 1) % 250}`;

interface Mail {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; contentType: string; content: string }[];
}
const mailsTo = async (email: string) => ((await outbox()) as unknown as Mail[]).filter((m) => m.to === email);

beforeAll(async () => {
  const admin = await signUpFreshAdmin({ first_name: 'Ana', last_name: 'Admin', company_name: 'Toldwell Ltd' });
  adminEmail = admin.email;
  adminVisitor = admin.visitor;
  accountId = (await accountOf(admin.email)).accountId;
  await serviceClient().from('accounts').update({ name: 'Toldwell Ltd' }).eq('id', accountId);
  const member = await joinAs(accountId, 'member');
  const { data } = await serviceClient().from('users').select('id').eq('email', member.email).single();
  owner = { email: member.email, userId: data!.id };
  auditorEmail = (await joinAs(accountId, 'auditor')).email;
}, 120_000);

/** A sent quote the member made, mailed to its client; answers its link's path. */
async function sentQuote(): Promise<{ id: string; number: string; clientEmail: string; path: string }> {
  const service = serviceClient();
  const clientEmail = uniqueEmail('client');
  const contact = await service.from('contacts').insert({ account_id: accountId, name: 'Ada Client', email: clientEmail }).select('id').single();
  if (contact.error) throw new Error(contact.error.message);
  const quote = await service
    .from('quotes')
    .insert({
      account_id: accountId, contact_id: contact.data.id, created_by: owner.userId, currency: 'EUR', status: 'sent',
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    })
    .select('id, quote_number')
    .single();
  if (quote.error) throw new Error(quote.error.message);
  const items = await service.from('quote_items').insert({ quote_id: quote.data.id, description: 'Site survey', qty: 2, unit_price: 50_000, total: 100_000, position: 0 });
  if (items.error) throw new Error(items.error.message);
  const queued = await service.rpc('enqueue_job', {
    p_kind: 'quote_send', p_idempotency_key: `quote_send:${quote.data.id}`, p_account_id: accountId,
    p_subject_id: quote.data.id, p_payload: { quote_id: quote.data.id },
  });
  if (queued.error) throw new Error(queued.error.message);
  await runCron();
  const [mail] = await mailsTo(clientEmail);
  const token = LINK.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error('no link mailed');
  return { id: quote.data.id, number: quote.data.quote_number, clientEmail, path: `/q/${token}` };
}

async function pdfPages(base64: string): Promise<string[]> {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return (await extractText(await getDocumentProxy(bytes), { mergePages: false })).text;
}

describe('after signing', () => {
  it('the signer gets the signed PDF with its certificate, once', async () => {
    const quote = await sentQuote();
    const signer = uniqueEmail('signer');
    expect((await new Visitor().get(quote.path, { 'CF-Connecting-IP': freshIp() })).status).toBe(200);
    const posted = await new Visitor().post(
      quote.path,
      { intent: 'accept', signer_name: 'Ada Signer', signer_email: signer, agree: 'on' },
      { 'CF-Connecting-IP': freshIp() },
    );
    expect(posted.status).toBe(303);
    for (let i = 0; i < 4; i++) await runCron();
    const mails = await mailsTo(signer);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Your signed quote ${quote.number} from Toldwell Ltd`);
    expect(mails[0].attachments?.map((a) => [a.filename, a.contentType])).toEqual([[`${quote.number}.pdf`, 'application/pdf']]);
    const pages = await pdfPages(mails[0].attachments![0].content);
    const certificate = pages.at(-1)!;
    expect(certificate).toContain('Signature certificate');
    expect(certificate).toContain('Ada Signer');
    const { data: row } = await serviceClient().from('quotes').select('content_hash').eq('id', quote.id).single();
    expect(certificate.replace(/\s+/g, '')).toContain(row!.content_hash);
    expect(pages.slice(0, -1).join('\n')).toContain('Site survey');
    // The admins' own mail still goes, once.
    expect((await mailsTo(adminEmail)).filter((m) => m.subject.includes(`${quote.number} was accepted`))).toHaveLength(1);
    // The quote's history names the signer as the client, and the opening of the link as the quote's client.
    const history = readable(await pageText(await adminVisitor.get(`/quotes/${quote.id}`)));
    expect(history).toContain(`Signed by Ada Signer (${signer}), client`);
    expect(history).toContain(`Viewed by Ada Client (${quote.clientEmail}), client`);
    expect(history).not.toContain('a former user');
  });
});

describe('after declining', () => {
  it("the quote's owner and the admins get the reason, once each; an auditor nothing", async () => {
    const quote = await sentQuote();
    const posted = await new Visitor().post(quote.path, { intent: 'decline', decline_reason: 'Over budget this quarter' }, { 'CF-Connecting-IP': freshIp() });
    expect(posted.status).toBe(303);
    for (let i = 0; i < 4; i++) await runCron();
    const subject = `Quote ${quote.number} was declined by Ada Client`;
    for (const email of [owner.email, adminEmail]) {
      const told = (await mailsTo(email)).filter((m) => m.subject === subject);
      expect(told, email).toHaveLength(1);
      expect(told[0].text).toContain('Their reason: Over budget this quarter');
    }
    expect((await mailsTo(auditorEmail)).filter((m) => m.subject === subject)).toEqual([]);
    expect(readable(await pageText(await adminVisitor.get(`/quotes/${quote.id}`)))).toContain(
      `Declined by Ada Client (${quote.clientEmail}), client`,
    );
    // The client is not told about their own decline.
    expect((await mailsTo(quote.clientEmail)).filter((m) => m.subject === subject)).toEqual([]);
  });
});
