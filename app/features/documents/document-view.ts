// A document's file to look at beside its fields (issue 32): the PDF or the
// image inline, from our own origin, so the review page frames it without
// naming Storage's origin in its CSP. The bytes come through the same
// one-minute signed link as Download (made for the signed-in user: Storage's
// policies decide) and are streamed on as data, never as a page of ours:
// `sandbox` gives the frame an origin of its own with no script, `default-src
// 'none'` lets it load nothing, `nosniff` holds the browser to the stored
// type, and only our own pages may frame it. Only a PDF or an image is shown;
// anything else (a spreadsheet, a Word file) is a 404 here and a Download there.
import { data } from 'react-router';
import type { Route } from './+types/document-view';
import { requireUser } from '~/lib/auth.server';
import { recordId, recordNotFound } from '~/lib/record-page.server';
import { VIEWABLE_TYPES } from './viewable';
import { downloadLink } from './store.server';
import { DOCUMENT_DETAIL_TEXTS as TEXTS } from './texts';

/** The headers of a framed file: data in a sandbox, framed by our pages only. */
export const VIEW_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'self'; sandbox",
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'private, no-store',
  'Content-Disposition': 'inline',
} as const;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase } = await requireUser(request, context);
  const id = recordId(params.id, TEXTS.notFound);
  const { data: document, error } = await supabase.from('documents').select('file_path, file_name, mime_type').eq('id', id).maybeSingle();
  if (error) throw new Error(`document failed to load: ${error.message}`);
  if (!document || !VIEWABLE_TYPES.includes(document.mime_type)) throw recordNotFound(TEXTS.notFound);
  const link = await downloadLink(supabase, document);
  const file = link ? await fetch(link).catch(() => null) : null;
  if (!file?.ok || !file.body) throw data({ error: TEXTS.downloadFailed }, { status: 503 });
  return new Response(file.body, { headers: { ...VIEW_HEADERS, 'Content-Type': document.mime_type } });
}
