// The reply tools in Chromium (decision 076), with JavaScript on and off: a
// canned reply made in the library is inserted into a reply (at once with
// JavaScript, by a round trip without), filled for the contact and never sent
// by itself; Compose starts a conversation whose mail goes out (read in the
// local outbox). axe finds no serious violation on the new pages.
import { describe, expect, inject, it } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import { readOutbox } from '../support/confirmation-mail.ts';
import { signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const backendUrl = inject('backendUrl');

describe('the reply tools', () => {
  for (const javaScript of [true, false]) {
    it(`inserts a canned reply and composes a mail (JavaScript ${javaScript ? 'on' : 'off'})`, async () => {
      const tag = crypto.randomUUID().slice(0, 8);
      const { page, context, errors } = await newVisitor(browser(), { javaScript, baseURL });
      page.setDefaultTimeout(20_000);
      const label = `e2e-reply-tools-${javaScript ? 'js' : 'nojs'}`;
      const email = await signUpThroughForm(page, { first: 'Rhea', last: 'Tools', label });
      // A contact to write to, added as the new admin.
      const customer = `e2e-${tag}@customer.test`;
      const client = createClient(backendUrl, inject('anonKey'), { auth: { persistSession: false, autoRefreshToken: false } });
      expect((await client.auth.signInWithPassword({ email, password: `${label}-password` })).error).toBeNull();
      const { data: me } = await client.from('users').select('account_id').eq('email', email).single();
      expect((await client.from('contacts').insert({ account_id: me!.account_id, name: `Ada ${tag}`, email: customer })).error).toBeNull();

      await page.goto('/messages/replies');
      await page.getByLabel('Name', { exact: true }).fill('Thanks');
      await page.getByLabel('Reply', { exact: true }).fill('Thank you {{contact_first_name}}.');
      await page.getByRole('button', { name: 'Add canned reply' }).click();
      await waitForToast(page, 'Canned reply created');
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);

      await page.goto('/messages/new');
      if (javaScript) expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByLabel('To', { exact: true }).selectOption({ label: `Ada ${tag} · ${customer}` });
      await page.getByLabel('Subject', { exact: true }).fill(`Your order ${tag}`);
      await page.getByLabel('Message', { exact: true }).fill('It is ready.');
      await page.getByRole('button', { name: 'Send' }).click();
      await waitForToast(page, 'Message sent');
      await page.getByRole('heading', { level: 1, name: `Your order ${tag}` }).waitFor();
      await expect
        .poll(async () => (await readOutbox(backendUrl)).filter((m) => m.to === customer).map((m) => m.subject), { timeout: 30_000 })
        .toEqual([`Your order ${tag}`]);

      const box = page.getByLabel('Message', { exact: true });
      await box.fill('Hello,');
      await page.getByLabel('Canned reply', { exact: true }).selectOption({ label: 'Thanks' });
      await page.getByRole('button', { name: 'Insert' }).click();
      await expect.poll(() => box.inputValue()).toContain(`Thank you Ada.`);
      // Without JavaScript the page came back with the notice; with it nothing was posted.
      await expect(page.getByText('The canned reply is in the box').count()).resolves.toBe(javaScript ? 0 : 1);
      expect(await box.inputValue()).toContain('Hello,');
      // Nothing was sent by inserting: the thread holds the one message.
      await expect(page.getByTestId('thread').locator('li').count()).resolves.toBe(1);
      expect(errors).toEqual([]);
      await context.close();
    }, 150_000);
  }
});
