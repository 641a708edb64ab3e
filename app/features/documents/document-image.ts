// A document's image or PDF, from our own origin, for OCR in the browser
// (decisions 032 and 095): the page's "Read text from the image" and "Read
// text from the scan" read these bytes. The Worker
// fetches the file through the same one-minute signed link as Download (made
// for the signed-in user: Storage's policies decide) and streams it on, so the
// page's Content-Security-Policy keeps connect-src 'self' and Storage needs no
// CORS. Only images and PDFs: nothing else is OCR's to read; sent as an
// attachment under a sandbox, a same-origin response never carries an
// uploaded file that a browser could run.
import { data } from 'react-router';
import type { Route } from './+types/document-image';
import { requireUser } from '~/lib/auth.server';
import { recordId, recordNotFound } from '~/lib/record-page.server';
import { OCR_FILE_TYPES } from './ocr/image-types';
import { downloadLink } from './store.server';
import { DOCUMENT_DETAIL_TEXTS as TEXTS } from './texts';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase } = await requireUser(request, context);
  const id = recordId(params.id, TEXTS.notFound);
  const { data: document, error } = await supabase.from('documents').select('file_path, file_name, mime_type').eq('id', id).maybeSingle();
  if (error) throw new Error(`document failed to load: ${error.message}`);
  if (!document || !OCR_FILE_TYPES.includes(document.mime_type)) throw recordNotFound(TEXTS.notFound);
  const link = await downloadLink(supabase, document);
  const file = link ? await fetch(link).catch(() => null) : null;
  if (!file?.ok || !file.body) throw data({ error: TEXTS.downloadFailed }, { status: 503 });
  return new Response(file.body, {
    headers: {
      'Content-Type': document.mime_type,
      'Content-Disposition': 'attachment',
      'Cache-Control': 'private, no-store',
      // Opened by hand, it is a file to save, never a page.
      'Content-Security-Policy': "default-src 'none'; sandbox",
    },
  });
}
