// What a record's page (/leads/:id, /clients/:id, /quotes/:id, ...) does the same way: an id
// that is no record is a 404, and the dialogs it opens by URL (?edit,
// ?delete) open only for those who may write.
import { data, type RouterContextProvider } from 'react-router';
import { requireUser, requireUserWith } from '~/lib/auth.server';
import { isUuid, refuseReadOnly } from '~/lib/records.server';
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
 * Where a record page's action starts: the signed-in user; for a read-only
 * role, `refused`, the answer to return; else the record's id from the URL (a
 * 404 when it is none) and the page's path (`${basePath}/${id}`).
 */
export async function recordWriter(args: RecordArgs, basePath: string, notFound: string) {
  const { supabase, profile } = await requireUser(args.request, args.context);
  const refused = refuseReadOnly(args, profile);
  if (refused) return { refused } as const;
  const id = recordId(args.params.id, notFound);
  return { refused: null, supabase, profile, id, page: `${basePath}/${id}` } as const;
}
