// Settings in Chromium, JavaScript on and off: an admin invites someone, the
// invitation mail is read from the outbox, the invitee accepts and signs in,
// the admin changes their role and deactivates them (which signs them out),
// and the audit log shows each step with the spec's badge colours.
import { describe, expect, inject, it } from 'vitest';
import { invitationLinkFor, signInThroughForm, signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations, waitForToast } from './support/browser.ts';
import { DEMO_ADMIN, DEMO_MEMBER, uniqueEmail } from '../support/accounts.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const backendUrl = inject('backendUrl');

for (const javaScript of [true, false]) {
  describe(`users and audit log with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it('invites, the invitee accepts from the mail, the admin changes the role and deactivates them, the audit log shows it all', async () => {
      const admin = await newVisitor(browser(), { javaScript, baseURL });
      const page = admin.page;
      await signUpThroughForm(page, { first: 'Ada', last: 'Admin', label: 'e2e-settings-admin' });
      const invitee = uniqueEmail('e2e-invitee');

      // Invite.
      await page.goto('/settings/users');
      await page.getByRole('main').getByRole('link', { name: 'Invite User' }).click();
      const inviteDialog = page.getByRole('dialog', { name: 'Invite User' });
      await inviteDialog.waitFor();
      expect(await inviteDialog.getByLabel('Role').inputValue()).toBe('member');
      await inviteDialog.getByLabel('Email').fill(invitee);
      await inviteDialog.getByLabel('Role').selectOption('auditor');
      await inviteDialog.getByLabel('First name').fill('Ivy');
      await inviteDialog.getByLabel('Last name').fill('Invitee');
      await inviteDialog.getByRole('button', { name: 'Send Invitation' }).click();
      await waitForToast(page, `Invitation sent to ${invitee}. They will receive an email with setup instructions.`);
      await page.getByRole('list', { name: 'Pending invitations' }).getByText(invitee).waitFor();

      // Accept from the mail: signed in at once (an auditor's home is the dashboard).
      const member = await newVisitor(browser(), { javaScript, baseURL });
      await member.page.goto(new URL(await invitationLinkFor(backendUrl, invitee)).pathname);
      await member.page.getByText(invitee).first().waitFor();
      await member.page.getByLabel('Password', { exact: true }).fill('invitee-pass');
      await member.page.getByLabel('Confirm password').fill('invitee-pass');
      await member.page.getByRole('button', { name: 'Create Account' }).click();
      await member.page.waitForURL('**/dashboard');

      // Change the role; the email is shown but locked.
      await page.goto('/settings/users');
      const users = page.getByRole('table', { name: 'Users' });
      await users.getByRole('cell', { name: invitee }).waitFor();
      expect(await users.locator('[data-role="auditor"]').count()).toBe(1);
      await users.getByRole('link', { name: 'Edit Ivy Invitee' }).click();
      const editDialog = page.getByRole('dialog', { name: 'Edit User' });
      await editDialog.waitFor();
      const email = editDialog.getByLabel('Email');
      expect(await email.inputValue()).toBe(invitee);
      expect(await email.getAttribute('readonly')).not.toBeNull();
      await editDialog.getByLabel('Role').selectOption('member');
      await editDialog.getByRole('button', { name: 'Update User' }).click();
      await waitForToast(page, 'User updated successfully');
      await users.locator('[data-role="member"]').first().waitFor();

      // Deactivate: the member's session ends.
      await users.getByRole('button', { name: 'Deactivate Ivy Invitee' }).click();
      await waitForToast(page, 'User deactivated successfully');
      await users.getByRole('button', { name: 'Activate Ivy Invitee' }).waitFor();
      await member.page.goto('/dashboard');
      await member.page.waitForURL('**/auth**');
      await member.context.close();

      // The audit log, newest first, with the spec colours.
      await page.goto('/settings/audit-logs');
      const entries = page.getByRole('table', { name: 'Audit entries' }).locator('tbody tr');
      const expected: [string, string, string][] = [
        ['user_deactivated', 'User Deactivated', 'bg-red-100'],
        ['user_role_updated', 'User Role Updated', 'bg-blue-100'],
        ['invitation_accepted', 'Invitation Accepted', 'bg-green-100'],
        ['user_invited', 'User Invited', 'bg-green-100'],
      ];
      for (const [index, [action, label, colour]] of expected.entries()) {
        const badge = entries.nth(index).locator('[data-action]');
        expect(await badge.getAttribute('data-action')).toBe(action);
        expect(await badge.textContent()).toBe(label);
        expect(await badge.getAttribute('class')).toContain(colour);
      }
      const roleChange = entries.nth(1);
      expect(await roleChange.textContent()).toContain('Ada Admin');
      // Changes show as before → after per field.
      expect(await roleChange.textContent()).toContain('member');

      // Search and filter through the URL.
      await page.getByLabel('Search').fill('role');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL('**/settings/audit-logs?q=role**');
      await entries.locator('[data-action="user_role_updated"]').waitFor();
      expect(await entries.count()).toBe(1);
      await page.getByLabel('Action').selectOption('user_invited');
      await page.getByLabel('Search').fill('');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL('**action=user_invited**');
      // The search before also showed "1 entry", and the URL changes a moment before React renders the
      // new list: wait for the list's own content, then check it holds nothing else.
      await entries.locator('[data-action="user_invited"]').waitFor();
      await entries.locator('[data-action="user_role_updated"]').waitFor({ state: 'detached' });
      expect(await entries.count()).toBe(1);
      expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/settings/audit-logs.csv?action=user_invited');

      expect(admin.errors).toEqual([]);
      await admin.context.close();
    });
  });
}

describe('settings screens and dialogs, accessibility', () => {
  for (const javaScript of [true, false]) {
    it(`have no serious or critical axe violations (JavaScript ${javaScript ? 'on' : 'off'})`, async () => {
      // axe runs as a script in the page: "JavaScript off" refuses the app's own scripts instead.
      const visitor = await newVisitor(browser(), { javaScript: true, baseURL });
      await signInThroughForm(visitor.page, DEMO_ADMIN);
      if (!javaScript) await visitor.context.route('**/assets/*.js', (route) => route.abort());
      const page = visitor.page;
      const paths = [
        '/settings/website',
        '/settings/modules',
        '/settings/templates',
        '/settings/templates?new',
        '/settings/integrations',
        '/settings/integrations?new',
        '/settings/users',
        '/settings/users?invite',
        '/settings/account',
        '/settings/audit-logs',
      ];
      for (const path of paths) {
        await page.goto(path);
        await page.getByRole('heading', { level: 2 }).first().waitFor();
        expect(await seriousAxeViolations(page), path).toEqual([]);
      }
      // The dialogs that need a record: the first row's links.
      for (const [list, link] of [
        ['/settings/templates', 'Edit'],
        ['/settings/templates', 'Delete'],
        ['/settings/integrations', 'Edit'],
        ['/settings/integrations', 'Delete'],
        ['/settings/users', 'Edit'],
        ['/settings/users', 'Revoke'],
      ] as const) {
        await page.goto(list);
        const href = await page.getByRole('main').getByRole('link', { name: link, exact: false }).first().getAttribute('href');
        expect(href).toMatch(new RegExp(`^${list}\\?`));
        await page.goto(href!);
        await page.getByRole('dialog').waitFor();
        expect(await seriousAxeViolations(page), href!).toEqual([]);
      }
      // What other roles see: a member is restricted from every settings screen.
      const staff = await newVisitor(browser(), { javaScript: true, baseURL });
      await signInThroughForm(staff.page, DEMO_MEMBER);
      for (const path of ['/settings/website', '/settings/users', '/settings/audit-logs']) {
        await staff.page.goto(path);
        await staff.page.getByText('Access Restricted').waitFor();
        expect(await seriousAxeViolations(staff.page), `member ${path}`).toEqual([]);
      }
      await staff.context.close();
      await visitor.context.close();
      // Nineteen pages and dialogs, each scanned by axe: not a speed target, just a long walk.
    }, 240_000);
  }
});
