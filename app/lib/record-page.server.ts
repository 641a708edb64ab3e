// What a record's page (/leads/:id, /clients/:id) does the same way: an id
// that is no record is a 404, and the dialogs it opens by URL (?edit,
// ?delete) open only for those who may write.
import { data } from 'react-router';
import { isUuid } from '~/lib/records.server';

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
