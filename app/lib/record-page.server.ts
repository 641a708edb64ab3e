// What a record's page (/leads/:id, /clients/:id, /quotes/:id, ...) does the same way: an id
// that is no record is a 404, and the dialogs it opens by URL (?edit,
// ?delete) open only for those who may write.
import { data, type RouterContextProvider } from 'react-router';
import { requireUser } from '~/lib/auth.server';
import { isUuid, refuseReadOnly } from '~/lib/records.server';

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

interface RecordActionArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
  params: { id?: string };
}

/**
 * Where a record page's action starts: the signed-in user; for a read-only
 * role, `refused`, the answer to return; else the record's id from the URL (a
 * 404 when it is none) and the page's path (`${basePath}/${id}`).
 */
export async function recordWriter(args: RecordActionArgs, basePath: string, notFound: string) {
  const { supabase, profile } = await requireUser(args.request, args.context);
  const refused = refuseReadOnly(args, profile);
  if (refused) return { refused } as const;
  const id = recordId(args.params.id, notFound);
  return { refused: null, supabase, profile, id, page: `${basePath}/${id}` } as const;
}
