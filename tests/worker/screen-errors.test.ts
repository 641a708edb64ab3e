// An error inside a signed-in screen keeps the shell: the sidebar stays, the
// page says what failed (status and sentence, as the bare error page does) and
// offers to try again, without JavaScript.
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN } from '../support/accounts';
import { pageText, signIn, Visitor } from './support/app';

describe('an error inside a screen', () => {
  it('is shown inside the shell with the sidebar, what failed and a retry link', async () => {
    const visitor = await signIn(DEMO_ADMIN);
    // The bills list has no action: a post to it is refused by the router (405).
    const response = await visitor.post('/bills?tab=recent', { anything: '1' });
    expect(response.status).toBe(405);
    const html = await pageText(response);
    expect(html).toMatch(/<h1[^>]*>Unexpected Application Error!<\/h1>\s*<p[^>]*>405 — /);
    expect(html).toMatch(/<a href="\/bills\?tab=recent"[^>]*>Try again<\/a>/);
    // The shell is still there: the sidebar's links and the avatar menu.
    for (const link of ['href="/leads"', 'href="/quotes"', 'href="/settings/users"']) expect(html).toContain(link);
    expect(html).toContain('role="alert"');
  });

  it('outside the shell (no session) is the bare error page', async () => {
    const response = await new Visitor().post('/no-such-page', { anything: '1' });
    const html = await pageText(response);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(html).not.toContain('Try again');
  });
});
