// What the settings screens' loaders and actions share: the signed-in user,
// their users row and what their role may do here (admins change settings,
// auditors only read them, everyone else is restricted; the database refuses
// the same, the UI only spares them a form that would fail), the paging and
// the dialogs of the lists, and the answers to their forms.
import type { SubmissionResult } from '@conform-to/react';
import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js';
import { data, type RouterContextProvider } from 'react-router';
import { requireUser, type SignedIn, type UserProfile } from '~/lib/auth.server';
import { ALTERED_FORM_MESSAGE, isAlteredForm } from '~/lib/forms.server';
import { canReadSettings } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';

type ToastArgs = Parameters<typeof dataWithError>[0];

export interface SettingsUser extends SignedIn {
  profile: UserProfile | null;
  isAdmin: boolean;
  /** Admins and auditors see the settings screens; auditors without their buttons. */
  canRead: boolean;
}

export async function requireSettingsUser(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<SettingsUser> {
  const signedIn = await requireUser(request, context);
  const role = signedIn.profile?.role;
  return { ...signedIn, isAdmin: role === 'admin', canRead: canReadSettings(role) };
}

/**
 * A settings form posted by anyone but an admin (a hand-made post, or a page
 * kept open after a role change): refused with a 403 and the screen's
 * restriction text, before the database is asked (it would refuse too).
 */
export function refuseNonAdmin(args: ToastArgs, user: SettingsUser, message: string) {
  return user.isAdmin ? null : dataWithError(args, { restricted: true as const }, message, { status: 403 });
}

/** A database error as the server message of docs/product-guide.md ("the server message, else ..."). */
export function serverMessage(error: { message?: string } | null | undefined, fallback: string): string {
  return error?.message?.trim() || fallback;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id from the URL (`?edit=<id>`) worth asking the database about: a malformed one would only be a 400 from it. */
export function isUuid(value: string | null): value is string {
  return value !== null && UUID.test(value);
}

/**
 * Which dialog a settings list's URL opens (`?new`, `?edit=<id>`, `?delete=<id>`);
 * an edit or a delete only when its row was found.
 */
export function listDialog(url: URL, found: boolean): 'new' | 'edit' | 'delete' | null {
  if (url.searchParams.has('new')) return 'new';
  if (url.searchParams.has('edit') && found) return 'edit';
  if (url.searchParams.has('delete') && found) return 'delete';
  return null;
}

interface FailedSubmission {
  status?: string;
  payload?: Record<string, unknown>;
  error?: Record<string, string[] | null> | null;
  reply: () => SubmissionResult<string[]>;
}

/**
 * A settings form that did not validate: a 400 that shows its errors inline,
 * plus a toast where an inline error is not enough: the JSON box's parse
 * error (docs/product-guide.md: the parser's message) and a form that arrived altered.
 */
export async function refuseSubmission(args: ToastArgs, submission: FailedSubmission, jsonField?: string) {
  const jsonError = jsonField ? submission.error?.[jsonField]?.[0] : undefined;
  const result = submission.reply();
  if (jsonError) return dataWithError(args, { result }, jsonError, { status: 400 });
  if (isAlteredForm(submission)) return dataWithError(args, { result }, ALTERED_FORM_MESSAGE, { status: 400 });
  return data({ result }, { status: 400 });
}

/** Deletes one row by id; false when none was (the database refused, or it was gone). */
export async function deleteRow(supabase: SupabaseClient, table: string, id: string): Promise<boolean> {
  const { data: deleted, error } = await supabase.from(table).delete().eq('id', id).select('id');
  return !error && deleted.length > 0;
}

/**
 * Updates the row `id` names, or inserts a new one for the user's account;
 * `ok` false when nothing was written, with the database's error if it gave one.
 */
export async function saveRow(
  supabase: SupabaseClient,
  profile: UserProfile | null,
  table: string,
  id: string | undefined,
  values: Record<string, unknown>,
): Promise<{ ok: boolean; error: PostgrestError | null }> {
  const saved = id
    ? await supabase.from(table).update(values).eq('id', id).select('id')
    : await supabase
        .from(table)
        .insert({ ...values, account_id: profile?.account_id, created_by: profile?.id })
        .select('id');
  return { ok: !saved.error && saved.data.length > 0, error: saved.error };
}
