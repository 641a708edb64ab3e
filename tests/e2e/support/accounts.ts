// Moves the e2e tests make often: sign in through the form, read the outbox.
import { createClient } from '@supabase/supabase-js';
import type { Page } from 'playwright-core';

export const DEMO_ADMIN = { email: 'demo@opshub.test', password: 'demo1234' };

let counter = 0;
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}@example.test`;
}

export async function signInThroughForm(page: Page, credentials: { email: string; password: string }): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/dashboard');
}

/** Invites through the real invite-user function as the demo admin; returns the link from the mail outbox. */
export async function inviteAndReadLink(backendUrl: string, anonKey: string, email: string, role: string): Promise<string> {
  const admin = createClient(backendUrl, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { error: signInError } = await admin.auth.signInWithPassword(DEMO_ADMIN);
  if (signInError) throw signInError;
  const { error } = await admin.functions.invoke('invite-user', { body: { email, role, first_name: '', last_name: '' } });
  if (error) throw error;
  const mails = (await (await fetch(`${backendUrl}/_outbox`)).json()) as { to: string; text: string }[] | { messages: { to: string; text: string }[] };
  const list = Array.isArray(mails) ? mails : mails.messages;
  const mail = list.filter((m) => m.to === email).at(-1);
  const link = mail?.text.match(/https?:\/\/\S+\/invite\/[A-Za-z0-9_-]+/)?.[0];
  if (!link) throw new Error(`no invitation mail for ${email}`);
  return link;
}
