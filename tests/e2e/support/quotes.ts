// A sent quote of the Northwind demo account made straight through the
// backend (the service role: the quote's own screens are proven elsewhere),
// the jobs runner ticked as the Cron Trigger would, and links read back from
// the local mail outbox.
import { expect, inject } from 'vitest';
import { uniqueEmail } from '../../support/accounts.ts';
import { readOutbox } from '../../support/confirmation-mail.ts';

export async function serviceRest<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const serviceKey = inject('serviceRoleKey');
  const response = await fetch(`${inject('backendUrl')}/rest/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: serviceKey,
      authorization: `Bearer ${serviceKey}`,
      'Content-Type': 'application/json',
      Prefer: 'return=representation',
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The jobs runner, once, as the Cron Trigger runs it (wrangler dev --test-scheduled). */
export async function runJobs(): Promise<void> {
  const response = await fetch(`${inject('appUrl')}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
  expect(response.ok).toBe(true);
}

/** One tick with the runner's clock at `at` (wrangler dev --test-scheduled: `time` is the scheduled time in ms). */
export async function runJobsAt(at: number): Promise<void> {
  const response = await fetch(`${inject('appUrl')}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*&time=${at}`);
  expect(response.ok).toBe(true);
}

/**
 * One tick that runs the periodic step `kind` now (e.g. automations.run), even
 * if this minute's already ran: the test-only cron `force:<kind>`, which no
 * Cron Trigger carries (app/jobs/runner.server.ts, forcedPeriodicJobs).
 */
export async function runPeriodicNow(kind: string): Promise<void> {
  const response = await fetch(`${inject('appUrl')}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(`force:${kind}`)}`);
  expect(response.ok).toBe(true);
}

/**
 * The last link matching `pattern` in a mail to `email`, waited for: a mail
 * an action queued leaves when the action's kick of the jobs runner has run.
 */
export async function linkMailedTo(email: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const link = (await readOutbox(inject('backendUrl')))
      .filter((mail) => mail.to === email)
      .map((mail) => mail.text.match(pattern)?.[0])
      .filter(Boolean)
      .at(-1);
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`no mail to ${email} with a link like ${pattern}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface SentQuote {
  id: string;
  number: string;
  /** The quote's public page, from the client's mail. */
  link: string;
  clientEmail: string;
}

/**
 * A sent quote of the Northwind demo account (no email integration: the
 * platform's mail API) for a new client, £750.00 in three items plus 20% tax
 * (£900.00), its quote_send job run: the link is the one in the client's mail.
 */
export async function sentQuoteLink(): Promise<SentQuote> {
  const [{ account_id: accountId }] = await serviceRest<{ account_id: string }[]>('users?select=account_id&email=eq.admin%40northwind.test');
  const clientEmail = uniqueEmail('e2e-client');
  const [contact] = await serviceRest<{ id: string }[]>('contacts', { method: 'POST', body: { account_id: accountId, name: 'Grace Client', email: clientEmail } });
  const [quote] = await serviceRest<{ id: string; quote_number: string }[]>('quotes', {
    method: 'POST',
    body: {
      account_id: accountId,
      contact_id: contact.id,
      currency: 'GBP',
      status: 'sent',
      tax_rate: 20,
      notes: 'Delivery within two weeks.',
      expires_at: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    },
  });
  await serviceRest('quote_items', {
    method: 'POST',
    body: [
      { quote_id: quote.id, description: 'Consultation', qty: 1, unit_price: 20_000, total: 20_000, position: 0 },
      { quote_id: quote.id, description: 'Design', qty: 3, unit_price: 15_000, total: 45_000, position: 1 },
      { quote_id: quote.id, description: 'Support (monthly)', qty: 2, unit_price: 5_000, total: 10_000, position: 2 },
    ],
  });
  await serviceRest('rpc/enqueue_job', {
    method: 'POST',
    body: { p_kind: 'quote_send', p_idempotency_key: `quote_send:${quote.id}`, p_account_id: accountId, p_subject_id: quote.id, p_payload: { quote_id: quote.id } },
  });
  await runJobs();
  const mail = (await readOutbox(inject('backendUrl'))).find((m) => m.to === clientEmail);
  const link = mail?.text.match(/http:\/\/127\.0\.0\.1:\d+\/q\/[A-Za-z0-9_-]{43}/)?.[0];
  if (!link) throw new Error(`no quote link mailed to ${clientEmail}`);
  return { id: quote.id, number: quote.quote_number, link, clientEmail };
}
