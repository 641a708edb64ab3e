// A bid file's Download link (issue 38; decision 091): GET /rfp/:id/files/:fileId, a redirect to a Storage
// URL signed for a minute for the signed-in user (the row's and Storage's policies decide: staff, auditors
// included; anyone else a 404 as if it did not exist), so the page never holds a link that outlives its
// reader's right to the file. Storage serves it as an attachment under its stored type.
import { data, redirect } from 'react-router';
import type { Route } from './+types/attachment-download';
import { requireUser } from '~/lib/auth.server';
import { recordId, recordNotFound } from '~/lib/record-page.server';
import { attachmentLink } from './store.server';

const NOT_FOUND = 'File not found';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase } = await requireUser(request, context);
  const rfpId = recordId(params.id, NOT_FOUND);
  const fileId = recordId(params.fileId, NOT_FOUND);
  const { data: file, error } = await supabase.from('rfp_attachments').select('file_path, file_name').eq('id', fileId).eq('rfp_id', rfpId).maybeSingle();
  if (error) throw new Error(`bid file failed to load: ${error.message}`);
  if (!file) throw recordNotFound(NOT_FOUND);
  const link = await attachmentLink(supabase, file);
  if (!link) throw data({ error: 'The file could not be reached. Try again in a moment.' }, { status: 503 });
  return redirect(link, { headers: { 'Cache-Control': 'no-store' } });
}
