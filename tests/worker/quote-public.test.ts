// The public half of a quote through the real Worker (decision 030): the
// quote_send job mails the contact a link (read back from the local outbox),
// the link's page in every state, Accept and sign / Decline as plain form
// posts, bad input, the limits per IP and per token, the admins' mail after a
// signature, and a mail server that is down.
import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { signedDocumentHash } from '../../app/lib/pdf';
import { signatureHeader } from '../../app/features/quotes/pdf/signature-png';
import { normalSignaturePng, toBase64, zeroRowsPng } from '../support/png-bomb';
import { uniqueEmail } from '../support/accounts';
import { pageText, signUpFreshAdmin, Visitor } from './support/app';
import { accountOf, outbox, runSql, serviceClient } from './support/backend';

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
const runCron = () => worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
const LINK = /http:\/\/ops-hub\.test\/q\/([A-Za-z0-9_-]{43})/;
// A 1x1 PNG.
const PNG_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

let accountId: string;
let adminEmail: string;
let adminVisitor: Visitor;
let ipCounter = 0;
/** Each test its own client IP, so the per-IP window of one never limits another. */
const freshIp = () => `198.51.100.${(ipCounter += 1) % 250}`;

beforeAll(async () => {
  const admin = await signUpFreshAdmin({ first_name: 'Quinn', last_name: 'Admin', company_name: 'Linkwise Ltd' });
  adminEmail = admin.email;
  adminVisitor = admin.visitor;
  accountId = (await accountOf(admin.email)).accountId;
  await serviceClient().from('accounts').update({ name: 'Linkwise Ltd' }).eq('id', accountId);
});

interface SentQuote {
  id: string;
  clientEmail: string;
  number: string;
}

/** A sent quote with two items and a queued quote_send job, as the Send action leaves it. */
async function sentQuote(options: { expiresAt?: string } = {}): Promise<SentQuote> {
  const service = serviceClient();
  const clientEmail = uniqueEmail('client');
  const contact = await service.from('contacts').insert({ account_id: accountId, name: 'Ada Client', email: clientEmail }).select('id').single();
  if (contact.error) throw new Error(contact.error.message);
  const quote = await service
    .from('quotes')
    .insert({
      account_id: accountId,
      contact_id: contact.data.id,
      currency: 'EUR',
      status: 'sent',
      tax_rate: 10,
      discount: 5,
      notes: 'Payment within 30 days.',
      expires_at: options.expiresAt ?? new Date(Date.now() + 30 * 86_400_000).toISOString(),
    })
    .select('id, quote_number')
    .single();
  if (quote.error) throw new Error(quote.error.message);
  const items = await service.from('quote_items').insert([
    { quote_id: quote.data.id, description: 'Site survey', qty: 2, unit_price: 50_000, total: 100_000, position: 0 },
    { quote_id: quote.data.id, description: 'Installation & wiring', qty: 1, unit_price: 25_000, total: 25_000, position: 1 },
  ]);
  if (items.error) throw new Error(items.error.message);
  const queued = await service.rpc('enqueue_job', {
    p_kind: 'quote_send',
    p_idempotency_key: `quote_send:${quote.data.id}`,
    p_account_id: accountId,
    p_subject_id: quote.data.id,
    p_payload: { quote_id: quote.data.id },
  });
  if (queued.error) throw new Error(queued.error.message);
  return { id: quote.data.id, clientEmail, number: quote.data.quote_number };
}

async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: false });
  return text;
}

async function mailsTo(email: string) {
  return (await outbox()).filter((m) => m.to === email);
}

/** Sends the quote (runs the runner) and answers the path of the link in the client's mail. */
async function mailedLink(quote: SentQuote): Promise<string> {
  await runCron();
  const mails = await mailsTo(quote.clientEmail);
  expect(mails).toHaveLength(1);
  const token = LINK.exec(mails[0].text)?.[1];
  if (!token) throw new Error(`no link in ${mails[0].text}`);
  return `/q/${token}`;
}

const quoteRow = async (id: string) => (await serviceClient().from('quotes').select('*').eq('id', id).single()).data!;

function acceptFields(extra: Record<string, string> = {}): Record<string, string> {
  return { intent: 'accept', signer_name: 'Ada Client', signer_email: 'ada@client.test', agree: 'on', ...extra };
}

describe('the quote_send job', () => {
  it('mails the contact the account name, number, total, expiry and a link that opens the quote', async () => {
    const quote = await sentQuote();
    const path = await mailedLink(quote);
    const [mail] = await mailsTo(quote.clientEmail);
    expect(mail.subject).toBe(`Quote ${quote.number} from Linkwise Ltd`);
    expect(mail.text).toContain(`Linkwise Ltd has sent you quote ${quote.number} for €1,306.25.`);
    expect(mail.text).toMatch(/valid until \w+ \d{1,2}, \d{4}/);
    // The token is stored only as its hash.
    const row = await quoteRow(quote.id);
    expect(row.delivery_error).toBeNull();
    expect(JSON.stringify(row)).not.toContain(path.slice(3));
    const { data: job } = await serviceClient().from('jobs').select('status').eq('idempotency_key', `quote_send:${quote.id}`).single();
    expect(job!.status).toBe('done');

    const page = await new Visitor().get(path, { 'CF-Connecting-IP': freshIp() });
    expect(page.status).toBe(200);
    const html = await pageText(page);
    for (const text of ['Linkwise Ltd', quote.number, 'Site survey', 'Installation &amp; wiring', '€1,250.00', '−€62.50', '€118.75', '€1,306.25', 'Payment within 30 days.', 'Accept and sign', 'Decline']) {
      expect(html).toContain(text);
    }
    expect(page.headers.get('Cache-Control')).toContain('no-store');
    expect(page.headers.get('X-Robots-Tag')).toContain('noindex');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"');
    // Nothing but the quote: no ids, no contact.
    expect(html).not.toContain(quote.id);
    expect(html).not.toContain(accountId);
    expect(html).not.toContain(quote.clientEmail);
    const viewed = await quoteRow(quote.id);
    expect(viewed.status).toBe('viewed');
    expect(viewed.viewed_at).not.toBeNull();
  });

  it('SMTP down: the delivery error is recorded, the job retried, the quote still sent; then a retry delivers a fresh link', async () => {
    const service = serviceClient();
    const down = await service
      .from('integrations')
      .insert({ account_id: accountId, name: 'Down SMTP', type: 'email', is_active: true, is_default_mail_route: true, config: { smtp_host: '127.0.0.1', smtp_port: inject('smtpDeadPort'), smtp_user: 'x', smtp_password: 'y', from_email: 'q@ops-hub.test' } })
      .select('id')
      .single();
    const quote = await sentQuote();
    try {
      await runCron();
      const { data: job } = await service.from('jobs').select('status, attempts, last_error, run_at').eq('idempotency_key', `quote_send:${quote.id}`).single();
      expect(job).toMatchObject({ status: 'queued', attempts: 1 });
      expect(new Date(job!.run_at).getTime()).toBeGreaterThan(Date.now());
      const row = await quoteRow(quote.id);
      expect(row.status).toBe('sent');
      expect(row.delivery_error).toBe(job!.last_error);
      expect(row.delivery_error).toBeTruthy();
      expect(await mailsTo(quote.clientEmail)).toEqual([]);
    } finally {
      await service.from('integrations').delete().eq('id', down.data!.id);
    }
    // The backoff passes (moved forward here rather than waited for): the retry goes through the platform's API.
    await runSql(`update public.jobs set run_at = now() where idempotency_key = 'quote_send:${quote.id}'`);
    const path = await mailedLink(quote);
    expect((await quoteRow(quote.id)).delivery_error).toBeNull();
    expect((await new Visitor().get(path, { 'CF-Connecting-IP': freshIp() })).status).toBe(200);
  });
});

describe('/q/:token', () => {
  it('a token that matches nothing is a 404 page, and so is a malformed one', async () => {
    for (const token of ['A'.repeat(43), 'not-a-token', `${'b'.repeat(43)}x`]) {
      const response = await new Visitor().get(`/q/${token}`, { 'CF-Connecting-IP': freshIp() });
      expect(response.status).toBe(404);
      expect(await pageText(response)).toContain('Quote not found');
    }
    const posted = await new Visitor().post(`/q/${'A'.repeat(43)}`, acceptFields(), { 'CF-Connecting-IP': freshIp() });
    expect(posted.status).toBe(404);
  });

  it('accept with a typed name and a drawn signature, without JavaScript: signed, thanks, the admins are told', async () => {
    const quote = await sentQuote();
    const path = await mailedLink(quote);
    const visitor = new Visitor();
    const ip = freshIp();
    const posted = await visitor.post(path, acceptFields({ signature: PNG_DATA_URL }), { 'CF-Connecting-IP': ip, 'User-Agent': 'Signer Browser/1.0' });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('Location')).toBe(path);
    const page = await pageText(await visitor.follow(posted));
    expect(page).toContain('Thank you, this quote is signed');
    expect(page).toContain('Signed by Ada Client on');
    expect(page).not.toContain('Accept and sign</button>');

    const row = await quoteRow(quote.id);
    expect(row).toMatchObject({ status: 'signed', signer_name: 'Ada Client', signer_email: 'ada@client.test', signer_ip: ip, signer_user_agent: 'Signer Browser/1.0' });
    expect(row.content_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.signature_png).toBeTruthy();

    await runCron();
    await runCron();
    const adminMails = (await mailsTo(adminEmail)).filter((m) => m.subject.startsWith(`Quote ${quote.number}`));
    expect(adminMails.map((m) => m.subject)).toEqual([`Quote ${quote.number} was accepted by Ada Client`]);
  });

  it("signing keeps what the client saw: after renaming the client's company and the seller, the signed PDF still shows the old names and the hash", async () => {
    const quote = await sentQuote();
    const service = serviceClient();
    const row0 = await quoteRow(quote.id);
    await service.from('contacts').update({ company: 'Client Co' }).eq('id', row0.contact_id);
    const path = await mailedLink(quote);
    expect((await new Visitor().post(path, acceptFields(), { 'CF-Connecting-IP': freshIp() })).status).toBe(303);
    const row = await quoteRow(quote.id);
    // The database took the hash from the snapshot it kept: anyone can recompute it.
    expect(row.content_hash).toBe(await signedDocumentHash(row.signed_document));
    expect(row.signed_document).toMatchObject({ account: { name: 'Linkwise Ltd' }, contact: { name: 'Ada Client', company: 'Client Co' } });

    // A member renames the signer's company and person, and the account its own name.
    await service.from('contacts').update({ name: 'Renamed Person', company: 'Renamed Holdings' }).eq('id', row.contact_id);
    await service.from('accounts').update({ name: 'Renamed Seller' }).eq('id', accountId);
    try {
      for (const response of [
        await new Visitor().get(`${path}/pdf`, { 'CF-Connecting-IP': freshIp() }),
        await adminVisitor.get(`/quotes/${quote.id}/pdf`),
      ]) {
        expect(response.status).toBe(200);
        const text = (await pdfText(new Uint8Array(await response.arrayBuffer()))).join('\n');
        expect(text).toContain('Client Co');
        expect(text).toContain('Linkwise Ltd');
        expect(text).not.toMatch(/Renamed/);
        expect(text.replace(/\s+/g, '')).toContain(row.content_hash);
      }
    } finally {
      await service.from('accounts').update({ name: 'Linkwise Ltd' }).eq('id', accountId);
    }
  });

  it('a drawn decompression bomb is refused at signing with a clear error; a drawn signature as the pad makes it is signed and drawn', async () => {
    const quote = await sentQuote();
    const path = await mailedLink(quote);
    const ip = freshIp();
    // 480 x 140 declared with 51 MB of zero rows behind it (81 KB), and an honest 4000 x 4000 one (126 KB).
    const bombs: [Uint8Array, string][] = [
      [zeroRowsPng({ width: 480, height: 140 }, { width: 8000, height: 1600 }), 'The drawn signature could not be read'],
      [zeroRowsPng({ width: 4000, height: 4000 }), 'The drawn signature is too large'],
    ];
    for (const [bomb, message] of bombs) {
      const response = await new Visitor().post(path, acceptFields({ signature: `data:image/png;base64,${toBase64(bomb)}` }), { 'CF-Connecting-IP': ip });
      expect(response.status).toBe(400);
      expect(await pageText(response)).toContain(message);
    }
    expect((await quoteRow(quote.id)).status).toBe('viewed');

    const drawn = normalSignaturePng();
    expect((await new Visitor().post(path, acceptFields({ signature: `data:image/png;base64,${toBase64(drawn)}` }), { 'CF-Connecting-IP': ip })).status).toBe(303);
    const row = await quoteRow(quote.id);
    expect(row.status).toBe('signed');
    // Stored re-encoded: the same pixels as three chunks, within the bounds.
    // bytea over REST: '\\x' and hex.
    const stored = Uint8Array.from(String(row.signature_png).slice(2).match(/../g)!, (pair) => parseInt(pair, 16));
    expect(signatureHeader(stored)).toEqual({ width: 480, height: 140, colorType: 6 });
    const pdf = await new Visitor().get(`${path}/pdf`, { 'CF-Connecting-IP': ip });
    const certificate = (await pdfText(new Uint8Array(await pdf.arrayBuffer()))).at(-1)!;
    expect(certificate).toContain('Signature certificate');
    expect(certificate).not.toContain('The drawn signature could not be read.');
  });

  it('a bomb stored before the bounds (or by a direct call) is not decoded when the PDF is rendered', async () => {
    const quote = await sentQuote();
    const path = await mailedLink(quote);
    const ip = freshIp();
    expect((await new Visitor().post(path, acceptFields(), { 'CF-Connecting-IP': ip })).status).toBe(303);
    const liar = zeroRowsPng({ width: 480, height: 140 }, { width: 8000, height: 1600 });
    const hex = Array.from(liar, (byte) => byte.toString(16).padStart(2, '0')).join('');
    await runSql(`update public.quotes set signature_png = '\\x${hex}'::bytea where id = '${quote.id}'`);
    const pdf = await new Visitor().get(`${path}/pdf`, { 'CF-Connecting-IP': ip });
    expect(pdf.status).toBe(200);
    const certificate = (await pdfText(new Uint8Array(await pdf.arrayBuffer()))).at(-1)!;
    expect(certificate).toContain('The drawn signature could not be read.');
  });

  it('a revised quote is replaced: its link says so, offers nothing to sign, and an accept posted anyway changes nothing', async () => {
    const quote = await sentQuote();
    const path = await mailedLink(quote);
    const ip = freshIp();
    expect((await new Visitor().get(path, { 'CF-Connecting-IP': ip })).status).toBe(200);
    const revised = await adminVisitor.post(`/quotes/${quote.id}`, { intent: 'revise' });
    expect(revised.status).toBe(302);
    const page = await new Visitor().get(path, { 'CF-Connecting-IP': ip });
    const text = await pageText(page);
    expect(text).toContain('This quote was replaced by a newer version.');
    expect(text).not.toContain('Accept and sign');
    expect(text).not.toContain('Site survey');
    const posted = await new Visitor().post(path, acceptFields(), { 'CF-Connecting-IP': ip });
    expect(posted.status).toBe(409);
    expect(await pageText(posted)).toContain('This quote was replaced by a newer version.');
    expect((await new Visitor().get(`${path}/pdf`, { 'CF-Connecting-IP': ip })).status).toBe(404);
    expect(await quoteRow(quote.id)).toMatchObject({ status: 'superseded', signed_at: null });
    // The quote's own page says what replaced it.
    expect(await pageText(await adminVisitor.get(`/quotes/${quote.id}`))).toContain('Its newer version');
  });

  it("the PDF, mailed and behind the link, shows the quote; once signed it ends with the certificate page", async () => {
    const quote = await sentQuote();
    const path = await mailedLink(quote);
    const [mail] = (await mailsTo(quote.clientEmail)) as unknown as { attachments?: { filename: string; contentType: string; content: string }[] }[];
    expect(mail.attachments?.map((a) => [a.filename, a.contentType])).toEqual([[`${quote.number}.pdf`, 'application/pdf']]);
    const mailed = await pdfText(Uint8Array.from(atob(mail.attachments![0].content), (c) => c.charCodeAt(0)));
    expect(mailed.join('\n')).toContain('Site survey');
    expect(mailed.join('\n')).not.toContain('Signature certificate');

    expect((await new Visitor().post(path, acceptFields(), { 'CF-Connecting-IP': freshIp() })).status).toBe(303);
    const response = await new Visitor().get(`${path}/pdf`, { 'CF-Connecting-IP': freshIp() });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    const pages = await pdfText(new Uint8Array(await response.arrayBuffer()));
    const certificate = pages.at(-1)!;
    const row = await quoteRow(quote.id);
    expect(certificate).toContain('Signature certificate');
    expect(certificate).toContain('Ada Client');
    expect(certificate.replace(/\s+/g, '')).toContain(row.content_hash);
    expect(pages.slice(0, -1).join('\n')).toContain(quote.number);
  });

  it("/quotes/:id/pdf: the account's staff download it; anyone else gets a sign-in or a 404", async () => {
    const quote = await sentQuote();
    const own = await adminVisitor.get(`/quotes/${quote.id}/pdf`);
    expect(own.status).toBe(200);
    expect(own.headers.get('Content-Disposition')).toBe(`attachment; filename="${quote.number}.pdf"`);
    expect((await pdfText(new Uint8Array(await own.arrayBuffer()))).join('\n')).toContain('Installation & wiring');

    const signedOut = await new Visitor().get(`/quotes/${quote.id}/pdf`);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get('Location')).toMatch(/^\/auth\?redirectTo=/);
    const stranger = (await signUpFreshAdmin()).visitor;
    expect((await stranger.get(`/quotes/${quote.id}/pdf`)).status).toBe(404);
    expect((await adminVisitor.get('/quotes/not-a-uuid/pdf')).status).toBe(404);
  });

  it('a link that opens nothing has no PDF either', async () => {
    const fake = `/q/${'A'.repeat(43)}/pdf`;
    expect((await new Visitor().get(fake, { 'CF-Connecting-IP': freshIp() })).status).toBe(404);
    expect((await new Visitor().get('/q/short/pdf', { 'CF-Connecting-IP': freshIp() })).status).toBe(404);
  });

  it('two accepts at once: one signs, the other is told it is already signed', async () => {
    const quote = await sentQuote();
    const path = await mailedLink(quote);
    const [one, two] = await Promise.all([
      new Visitor().post(path, acceptFields({ signer_name: 'First' }), { 'CF-Connecting-IP': freshIp() }),
      new Visitor().post(path, acceptFields({ signer_name: 'Second' }), { 'CF-Connecting-IP': freshIp() }),
    ]);
    expect([one.status, two.status].sort()).toEqual([303, 409]);
    const loser = one.status === 409 ? one : two;
    expect(await pageText(loser)).toContain('This quote has already been signed.');
    const row = await quoteRow(quote.id);
    expect(row.signer_name).toBe(one.status === 303 ? 'First' : 'Second');
  });

  it('bad input: a clear error under the field, a 400, what was typed kept, nothing changed', async () => {
    const quote = await sentQuote();
    const path = await mailedLink(quote);
    const ip = freshIp();
    const huge = `data:image/png;base64,iVBORw0KGgo${'A'.repeat(280_000)}`;
    const cases: [Record<string, string>, string][] = [
      [acceptFields({ agree: '' }), 'Tick the box to agree to the quote'],
      [acceptFields({ signer_name: '   ' }), 'Type your full name to sign'],
      [acceptFields({ signer_email: 'nope' }), 'Enter a valid email address'],
      [acceptFields({ signature: huge }), 'The drawn signature is too large'],
      [acceptFields({ signature: 'data:image/png;base64,@@notbase64@@' }), 'The drawn signature could not be read'],
      [acceptFields({ signature: `data:image/png;base64,${btoa('GIF89a-not-a-png')}` }), 'The drawn signature could not be read'],
      [{ intent: 'decline', decline_reason: 'x'.repeat(2001) }, 'At most 2000 characters'],
      // Mail header injection (issue 30): the name goes into the subject of the "accepted" mail.
      [acceptFields({ signer_name: 'Bob\r\nBcc: x@evil.example\r\n\r\nInjected body' }), 'Remove line breaks and other control characters'],
      [{ intent: 'decline', decline_reason: 'Too dear\u0007\u001b[2J' }, 'Remove control characters other than line breaks'],
    ];
    for (const [fields, message] of cases) {
      if (fields.agree === '') delete fields.agree;
      const response = await new Visitor().post(path, fields, { 'CF-Connecting-IP': ip });
      expect(response.status, message).toBe(400);
      const html = await pageText(response);
      expect(html).toContain(message);
      if (fields.intent === 'accept' && fields.signer_name.trim()) expect(html).toContain(`value="${fields.signer_name}"`);
    }
    const row = await quoteRow(quote.id);
    expect(row.status).toBe('viewed');
    expect(row.signed_at).toBeNull();
  });

  it('decline with a reason, without JavaScript: declined; accept afterwards changes nothing', async () => {
    const quote = await sentQuote();
    const path = await mailedLink(quote);
    const visitor = new Visitor();
    const ip = freshIp();
    const posted = await visitor.post(path, { intent: 'decline', decline_reason: 'Over budget' }, { 'CF-Connecting-IP': ip });
    expect(posted.status).toBe(303);
    expect(await pageText(await visitor.follow(posted))).toContain('This quote was declined');
    expect(await quoteRow(quote.id)).toMatchObject({ status: 'declined', decline_reason: 'Over budget' });
    const again = await visitor.post(path, acceptFields(), { 'CF-Connecting-IP': ip });
    expect(again.status).toBe(409);
    expect(await pageText(again)).toContain('This quote has already been declined.');
    expect((await quoteRow(quote.id)).status).toBe('declined');
  });

  it('an expired quote says so; accepting it changes nothing', async () => {
    const quote = await sentQuote();
    const path = await mailedLink(quote);
    await serviceClient().from('quotes').update({ expires_at: new Date(Date.now() - 60_000).toISOString() }).eq('id', quote.id);
    const ip = freshIp();
    const page = await new Visitor().get(path, { 'CF-Connecting-IP': ip });
    expect(page.status).toBe(200);
    expect(await pageText(page)).toContain('This quote has expired');
    const posted = await new Visitor().post(path, acceptFields(), { 'CF-Connecting-IP': ip });
    expect(posted.status).toBe(409);
    const row = await quoteRow(quote.id);
    expect(row.status).not.toBe('signed');
    expect(row.signed_at).toBeNull();
    // The sweep makes it expired for good (the runner queues it once a minute; queued here for this test).
    await serviceClient().rpc('enqueue_job', { p_kind: 'quotes.expire', p_idempotency_key: `quotes.expire:${quote.id}` });
    await runCron();
    expect((await quoteRow(quote.id)).status).toBe('expired');
  });

  it('30 uses of one link from one address in a minute, then a 429 page; the client elsewhere is not locked out', async () => {
    // The database counts in fixed minutes: do not straddle the end of one.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
    const quote = await sentQuote();
    const path = await mailedLink(quote);
    const forwardedTo = freshIp();
    let response: Response | undefined;
    for (let i = 0; i < 31; i += 1) {
      response = await new Visitor().get(path, { 'CF-Connecting-IP': forwardedTo });
      if (i < 30) expect(response.status).toBe(200);
    }
    expect(response!.status).toBe(429);
    expect(await pageText(response!)).toContain('Too many requests, try again in a minute.');
    const posted = await new Visitor().post(path, acceptFields(), { 'CF-Connecting-IP': forwardedTo });
    expect(posted.status).toBe(429);
    expect((await quoteRow(quote.id)).status).toBe('viewed');
    // The rightful client, at its own address, opens and signs.
    const client = freshIp();
    expect((await new Visitor().get(path, { 'CF-Connecting-IP': client })).status).toBe(200);
    expect((await new Visitor().post(path, acceptFields(), { 'CF-Connecting-IP': client })).status).toBe(303);
  });

  it('60 requests from one IP in a minute, then a 429 page whatever the token', async () => {
    const ip = '203.0.113.7';
    // The limiter counts in fixed 60-second windows: when a window ends during the
    // loop the count restarts, so the first refusal comes after 60 to 120 requests.
    let last: Response | undefined;
    let answered = 0;
    while (answered < 121) {
      last = await new Visitor().get(`/q/${'C'.repeat(43)}`, { 'CF-Connecting-IP': ip });
      if (last.status === 429) break;
      expect(last.status).toBe(404);
      answered += 1;
    }
    expect(answered).toBeGreaterThanOrEqual(60);
    expect(last!.status).toBe(429);
    expect(last!.headers.get('Retry-After')).toBe('60');
    expect(await pageText(last!)).toContain('Too many requests');
    // Another IP is not limited by it.
    expect((await new Visitor().get(`/q/${'C'.repeat(43)}`, { 'CF-Connecting-IP': '203.0.113.8' })).status).toBe(404);
  });

  it('the page needs no session and offers the anonymous visitor nothing else', async () => {
    const quote = await sentQuote();
    const path = await mailedLink(quote);
    const html = await pageText(await new Visitor().get(path, { 'CF-Connecting-IP': freshIp() }));
    // Outside the app layout: no sidebar, no links into the workspace.
    expect(html).not.toContain('href="/dashboard"');
    expect(html).not.toContain('href="/quotes"');
  });
});
