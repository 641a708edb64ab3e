// Moves the e2e tests make often: sign up (and confirm through the mailed link) or in through the form, read the outbox.
// (The demo accounts and uniqueEmail are every layer's: tests/support/accounts.ts.)
import { createClient } from '@supabase/supabase-js';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { type Credentials, DEMO_ADMIN, type Role, uniqueEmail } from '../../support/accounts.ts';
import { confirmationLinkFor, readOutbox } from '../../support/confirmation-mail.ts';

export async function signInThroughForm(page: Page, credentials: Credentials): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/dashboard');
}

/**
 * Signs a new person up through the form (a new account of their own, so the
 * demo data other files rely on is untouched); returns their email.
 */
export async function signUpThroughForm(
  page: Page,
  person: { first: string; last: string; label: string; company?: string },
): Promise<string> {
  const email = uniqueEmail(person.label);
  await page.goto('/auth?tab=signup');
  await page.getByLabel('Company name').fill(person.company ?? `${person.first} ${person.last} Ltd`);
  await page.getByLabel('First name').fill(person.first);
  await page.getByLabel('Last name').fill(person.last);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(`${person.label}-password`);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('status').filter({ hasText: 'Check your email' }).first().waitFor();
  // The mailed link proves the address and signs the person in.
  const link = await confirmationLinkFor(inject('backendUrl'), email);
  await page.goto(`${link.pathname}${link.search}`);
  await page.waitForURL('**/dashboard');
  return email;
}

/** Invites through the real invite-user function as the demo admin; returns the link from the mail outbox. */
export async function inviteAndReadLink(backendUrl: string, anonKey: string, email: string, role: Role): Promise<string> {
  const admin = createClient(backendUrl, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { error: signInError } = await admin.auth.signInWithPassword(DEMO_ADMIN);
  if (signInError) throw signInError;
  const { error } = await admin.functions.invoke('invite-user', { body: { email, role, first_name: '', last_name: '' } });
  if (error) throw error;
  return invitationLinkFor(backendUrl, email);
}

/** The link of the last invitation mail sent to `email`, read from the local backend's outbox. */
export async function invitationLinkFor(backendUrl: string, email: string): Promise<string> {
  const mails = await readOutbox(backendUrl);
  const link = mails.filter((mail) => mail.to === email).at(-1)?.text.match(/https?:\/\/\S+\/invite\/[A-Za-z0-9_-]+/)?.[0];
  if (!link) throw new Error(`no invitation mail for ${email}`);
  return link;
}
