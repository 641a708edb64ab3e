// Forgot password without JavaScript: the link under the sign-in form, the
// request for a mail (the same answer for any address), the mailed app link
// (/auth/confirm?type=recovery) signing the person in, the new password set on
// /auth/reset-password, and the dashboard afterwards.
import { describe, expect, it } from 'vitest';
import { outbox } from './support/backend';
import { pageText, signIn, signUpFreshAdmin, Visitor } from './support/app';
import { toastIn } from './support/settings';
import { DEMO_ADMIN, uniqueEmail } from '../support/accounts';

const SUBJECT = 'Reset your OpsHub Pro password';

async function recoveryLinkFor(email: string): Promise<URL> {
  const mail = (await outbox()).filter((m) => m.to === email && m.subject === SUBJECT).at(-1);
  if (!mail) throw new Error(`no reset mail for ${email}`);
  return new URL(/https?:\/\/\S+\/auth\/confirm\?\S+/.exec(mail.text)![0]);
}

describe('forgot password', () => {
  it('is offered under the sign-in form', async () => {
    const html = await pageText(await new Visitor().get('/auth'));
    expect(html).toMatch(/href="\/auth\/forgot-password"[^>]*>Forgot password\?</);
  });

  it('asks for the address, and answers alike whether or not it has an account', async () => {
    const page = await new Visitor().get('/auth/forgot-password');
    expect(page.status).toBe(200);
    expect(await pageText(page)).toContain('Send Reset Link');

    const { email } = await signUpFreshAdmin();
    const known = await new Visitor().post('/auth/forgot-password', { email });
    const unknownEmail = uniqueEmail('nobody');
    const unknown = await new Visitor().post('/auth/forgot-password', { email: unknownEmail });
    for (const response of [known, unknown]) {
      expect(response.status).toBe(200);
      const html = await pageText(response);
      expect(html).toContain('If an account uses this address, a link to reset its password is on its way.');
      expect(html).not.toContain('Send Reset Link');
    }
    expect((await recoveryLinkFor(email)).searchParams.get('type')).toBe('recovery');
    expect((await outbox()).filter((m) => m.to === unknownEmail)).toEqual([]);
  });

  it('refuses a missing or malformed address under the field, keeping it', async () => {
    const response = await new Visitor().post('/auth/forgot-password', { email: 'not-an-address' });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(html).toContain('Enter a valid email address');
    expect(html).toContain('value="not-an-address"');
  });

  it('sends a signed-in visitor to the dashboard', async () => {
    const response = await (await signIn(DEMO_ADMIN)).get('/auth/forgot-password');
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/dashboard');
  });
});

describe('the reset link', () => {
  it('signs the person in to choose a new password, then lands on the dashboard signed in', async () => {
    const { email, password } = await signUpFreshAdmin();
    await new Visitor().post('/auth/forgot-password', { email });
    const link = await recoveryLinkFor(email);
    const visitor = new Visitor();
    const confirmed = await visitor.get(`${link.pathname}${link.search}`);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get('Location')).toBe('/auth/reset-password');
    expect(visitor.names().some((name) => /^sb-.+-auth-token/.test(name))).toBe(true);

    const form = await visitor.follow(confirmed);
    expect(form.status).toBe(200);
    expect(await pageText(form)).toContain('Choose a new password');

    const mismatch = await visitor.post('/auth/reset-password', { password: 'brand-new-1', confirm_password: 'brand-new-2' });
    expect(mismatch.status).toBe(400);
    const mismatchHtml = await pageText(mismatch);
    expect(mismatchHtml).toContain('Passwords do not match');
    expect(mismatchHtml).not.toContain('brand-new-1');

    const saved = await visitor.post('/auth/reset-password', { password: 'brand-new-1', confirm_password: 'brand-new-1' });
    expect(saved.status).toBe(302);
    expect(saved.headers.get('Location')).toBe('/dashboard');
    const dashboard = await pageText(await visitor.follow(saved));
    expect(toastIn(dashboard)).toContain('Password updated');

    expect((await new Visitor().post('/auth', { intent: 'signin', email, password })).status).toBe(400);
    expect((await new Visitor().post('/auth', { intent: 'signin', email, password: 'brand-new-1' })).status).toBe(302);
    // The link worked once.
    const again = await new Visitor().get(`${link.pathname}${link.search}`);
    expect(again.headers.get('Location')).toBe('/auth/forgot-password');
  });

  it('the new-password page without a session sends the visitor to ask for a new link', async () => {
    for (const response of [
      await new Visitor().get('/auth/reset-password'),
      await new Visitor().post('/auth/reset-password', { password: 'whatever-1', confirm_password: 'whatever-1' }),
    ]) {
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toBe('/auth/forgot-password');
    }
  });
});
