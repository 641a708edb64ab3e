// A document's Download link: a redirect to a signed Storage URL that works
// for a minute, made for the signed-in user (Storage's policies decide), so
// the page never holds a link that outlives its reader's right to the file.
import { data, redirect } from 'react-router';
import type { Route } from './+types/document-download';
import { requireUser } from '~/lib/auth.server';
import { recordId, recordNotFound } from '~/lib/record-page.server';
import { downloadLink } from './store.server';
import { DOCUMENT_DETAIL_TEXTS as TEXTS } from './texts';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase } = await requireUser(request, context);
  const id = recordId(params.id, TEXTS.notFound);
  const { data: document, error } = await supabase.from('documents').select('file_path, file_name').eq('id', id).maybeSingle();
  if (error) throw new Error(`document failed to load: ${error.message}`);
  if (!document) throw recordNotFound(TEXTS.notFound);
  const link = await downloadLink(supabase, document);
  if (!link) throw data({ error: TEXTS.downloadFailed }, { status: 503 });
  return redirect(link, { headers: { 'Cache-Control': 'no-store' } });
}
