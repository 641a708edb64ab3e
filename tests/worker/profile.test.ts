// /profile without JavaScript: anyone signed in (an outsider too) changes their
// own name, their password (knowing the current one) and their address (by
// the links mailed to both addresses).
import { describe, expect, it } from 'vitest';
import { outbox, serviceClient } from './support/backend';
import { pageText, signUpFreshAdmin, Visitor } from './support/app';
import { freshTeam, profileOf, toastIn } from './support/settings';
import { uniqueEmail } from '../support/accounts';

describe('/profile', () => {
  it('sends an anonymous visitor to sign in, and shows anyone signed in their own details, an outsider too', async () => {
    const anonymous = await new Visitor().get('/profile');
    expect(anonymous.headers.get('Location')).toBe('/auth?redirectTo=%2Fprofile');
    const team = await freshTeam();
    for (const { visitor, email } of [team.admin, team.client]) {
      const response = await visitor.get('/profile');
      expect(response.status, email).toBe(200);
      const html = await pageText(response);
      expect(html).toContain(email);
      for (const text of ['Save Name', 'Change Password', 'Change Email']) expect(html).toContain(text);
      // The avatar menu's Profile item leads here.
      expect(html).toMatch(/href="\/profile"[^>]*>.*Profile</s);
    }
  });

  it('changes the own name', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const saved = await visitor.post('/profile', { intent: 'name', first_name: 'Renamed', last_name: 'Person' });
    expect(saved.status).toBe(302);
    expect(saved.headers.get('Location')).toBe('/profile');
    const html = await pageText(await visitor.follow(saved));
    expect(toastIn(html)).toContain('Name updated successfully');
    expect(html).toContain('Renamed Person');
    const { data } = await serviceClient().from('users').select('first_name, last_name').eq('email', email).single();
    expect(data).toEqual({ first_name: 'Renamed', last_name: 'Person' });
  });

  it('changes the password only with the current one, never echoing either', async () => {
    const { visitor, email, password } = await signUpFreshAdmin();
    const wrong = await visitor.post('/profile', {
      intent: 'password', current_password: 'not-it', password: 'next-secret', confirm_password: 'next-secret',
    });
    expect(wrong.status).toBe(400);
    const wrongHtml = await pageText(wrong);
    expect(wrongHtml).toContain('Current password is incorrect');
    expect(wrongHtml).not.toContain('next-secret');

    const mismatch = await visitor.post('/profile', {
      intent: 'password', current_password: password, password: 'next-secret', confirm_password: 'other-secret',
    });
    expect(mismatch.status).toBe(400);
    expect(await pageText(mismatch)).toContain('Passwords do not match');

    const saved = await visitor.post('/profile', {
      intent: 'password', current_password: password, password: 'next-secret', confirm_password: 'next-secret',
    });
    expect(saved.status).toBe(302);
    expect(toastIn(await pageText(await visitor.follow(saved)))).toContain('Password changed successfully');
    // Still signed in here; the new password is the one that works.
    expect((await visitor.get('/profile')).status).toBe(200);
    expect((await new Visitor().post('/auth', { intent: 'signin', email, password })).status).toBe(400);
    expect((await new Visitor().post('/auth', { intent: 'signin', email, password: 'next-secret' })).status).toBe(302);
  });

  it('changes the address once the links mailed to the current and the new one are followed', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const invalid = await visitor.post('/profile', { intent: 'email', email: 'nope' });
    expect(invalid.status).toBe(400);
    expect(await pageText(invalid)).toContain('Enter a valid email address');

    const next = uniqueEmail('moved');
    const asked = await visitor.post('/profile', { intent: 'email', email: next });
    expect(asked.status).toBe(302);
    const pending = await pageText(await visitor.follow(asked));
    expect(toastIn(pending)).toContain('Confirm your new email address');
    expect(pending).toContain(`Waiting for confirmation of ${next}.`);

    const linkTo = async (to: string) => {
      const mail = (await outbox()).filter((m) => m.to === to && /new OpsHub Pro email/.test(m.subject)).at(-1)!;
      const url = new URL(/https?:\/\/\S+\/auth\/confirm\?\S+/.exec(mail.text)![0]);
      return `${url.pathname}${url.search}`;
    };
    const first = await visitor.get(await linkTo(email));
    expect(first.headers.get('Location')).toBe('/profile');
    expect(toastIn(await pageText(await visitor.follow(first)))).toContain('One link confirmed');
    const second = await visitor.get(await linkTo(next));
    expect(second.headers.get('Location')).toBe('/profile');
    const done = await pageText(await visitor.follow(second));
    expect(toastIn(done)).toContain('Email address changed');
    expect(done).toContain(next);
    expect((await profileOf(next)).role).toBe('admin');
  });

  it('answers an altered intent with 400, never 500', async () => {
    const { visitor } = await signUpFreshAdmin();
    expect((await visitor.post('/profile', { intent: 'role', role: 'admin' })).status).toBe(400);
  });
});
