// The failed-jobs card on Settings → Integrations in Chromium: an admin whose
// account has a job the runner gave up on reads it (kind, attempts, last
// error), and the screen has no serious accessibility violations.
import { createClient } from '@supabase/supabase-js';
import { describe, expect, inject, it } from 'vitest';
import { signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations } from './support/browser.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

describe('failed jobs on the Integrations screen', () => {
  it('shows the admin the account\'s failed job with its last error, accessibly', async () => {
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    const email = await signUpThroughForm(page, { first: 'Fay', last: 'Failed', label: 'e2e-failed-jobs' });
    const service = createClient(inject('backendUrl'), inject('serviceRoleKey'), { auth: { persistSession: false, autoRefreshToken: false } });
    const { data: user } = await service.from('users').select('account_id').eq('email', email).single();
    const key = `e2e-failed:${crypto.randomUUID()}`;
    const queued = await service.rpc('enqueue_job', { p_kind: 'mail.send', p_idempotency_key: key, p_account_id: user!.account_id });
    expect(queued.error).toBeNull();
    // As the runner leaves a job after its fifth failed attempt.
    const failed = await service.from('jobs')
      .update({ status: 'failed', attempts: 5, last_error: 'SMTP said: 550 mailbox unavailable' })
      .eq('idempotency_key', key);
    expect(failed.error).toBeNull();

    await page.goto('/settings/integrations');
    const card = page.getByRole('table');
    await card.waitFor();
    await expect(page.getByRole('heading', { name: 'Failed jobs' }).isVisible()).resolves.toBe(true);
    const row = card.getByRole('row').nth(1);
    expect((await row.getByRole('cell').allInnerTexts()).slice(0, 3)).toEqual(['Mail', '5', 'SMTP said: 550 mailbox unavailable']);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
