// What a record's page (/leads/:id, /clients/:id, /quotes/:id, ...) does the same way: an id
// that is no record is a 404, and the dialogs it opens by URL (?edit,
// ?delete) open only for those who may write.
import { data, type RouterContextProvider } from 'react-router';
import { requireSessionClient, requireUser, requireUserWith } from '~/lib/auth.server';
import { isUuid, refuseReadOnly, type ToastArgs } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';

/** The 404 of a record's page, said inside the shell. */
export function recordNotFound(message: string) {
  return data({ error: message }, { status: 404 });
}

/** The record's id from the URL, or the 404 thrown. */
export function recordId(id: string | undefined, notFound: string): string {
  if (!isUuid(id ?? null)) throw recordNotFound(notFound);
  return id as string;
}

/** Which dialog the URL opens on a record's page. */
export function recordDialog(url: URL, canWrite: boolean): 'edit' | 'delete' | null {
  if (!canWrite) return null;
  if (url.searchParams.has('edit')) return 'edit';
  if (url.searchParams.has('delete')) return 'delete';
  return null;
}

/** What a record page's loader and action are given (the parts used here). */
interface RecordArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
  params: { id?: string };
}

/**
 * Where a record page's loader starts: the signed-in user, and the record
 * read alongside their users row rather than after it (requireUserWith), so
 * the page costs one round trip before its own follow-ups. An id that is no
 * record, or a record the user may not read, is the 404 inside the shell;
 * the session is checked first (a signed-out visitor is sent to sign in
 * whatever the id).
 */
export async function requireUserWithRecord<T>(
  args: RecordArgs,
  notFound: string,
  load: (supabase: Supabase, id: string) => PromiseLike<T | null>,
) {
  // Async, so a malformed id rejects the read instead of throwing before the session is checked.
  const [signedIn, found] = await requireUserWith(args.request, args.context, async (supabase) =>
    load(supabase, recordId(args.params.id, notFound)),
  );
  if (!found) throw recordNotFound(notFound);
  return { ...signedIn, id: args.params.id as string, found };
}

/**
 * Where a record page's action starts: the verified session's client, the
 * record's id from the URL (a 404 when it is none) and the page's path
 * (`${basePath}/${id}`). It does not wait for the users row: recordAction
 * reads that alongside the action's write.
 */
export async function recordWriter(args: RecordArgs, basePath: string, notFound: string) {
  const supabase = await requireSessionClient(args.request, args.context);
  const id = recordId(args.params.id, notFound);
  return { supabase, id, page: `${basePath}/${id}` } as const;
}

/**
 * A record page's action, its write started alongside the users row (one
 * backend round trip before its redirect, decision 059). The database refuses
 * a read-only role's write (every policy and function asks); when the users
 * row says the role may not write, the answer is the read-only refusal,
 * whatever the action answered.
 */
export async function recordAction<Answer>(args: RecordArgs & ToastArgs, act: () => Promise<Answer>) {
  const signedIn = requireUser(args.request, args.context);
  // Awaited after the action: it must not reject unheard meanwhile.
  signedIn.catch(() => {});
  let answer: Answer | undefined;
  let failure: { thrown: unknown } | null = null;
  try {
    answer = await act();
  } catch (thrown) {
    failure = { thrown };
  }
  const { profile } = await signedIn;
  const refused = refuseReadOnly(args, profile);
  if (refused) return refused;
  if (failure) throw failure.thrown;
  return answer as Answer;
}
