// One evidence file as a download (issue 37, second pass): GET
// /compliance/:id/evidence/:evidenceId. The row is read with the signed-in
// user's client (row-level security: staff, auditors included, of the item's
// account; anyone else gets a 404 as if it did not exist), the bytes through
// Storage with the same client (its policies decide too). Always an
// attachment, never a page of ours: `nosniff` holds the browser to the stored
// type and the sandbox CSP gives the response no script nor origin, as the
// documents' file routes do.
import { data } from 'react-router';
import type { Route } from './+types/evidence-download';
import { requireUser } from '~/lib/auth.server';
import { recordId, recordNotFound } from '~/lib/record-page.server';
import { EVIDENCE_BUCKET } from './evidence.server';
import { COMPLIANCE_DETAIL_TEXTS as TEXTS } from './texts';

export const EVIDENCE_DOWNLOAD_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'private, no-store',
} as const;

/** A header-safe file name: the stored one (already made safe on upload) without quotes or non-ASCII. */
const attachmentName = (name: string) => name.replace(/[^A-Za-z0-9_. -]/g, '_').slice(0, 200) || 'evidence';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase } = await requireUser(request, context);
  const itemId = recordId(params.id, TEXTS.notFound);
  const evidenceId = recordId(params.evidenceId, TEXTS.evidenceNotFound);
  const { data: row, error } = await supabase.from('evidence').select('file_path, file_name, mime_type')
    .eq('id', evidenceId).eq('item_id', itemId).maybeSingle();
  if (error) throw new Error(`evidence failed to load: ${error.message}`);
  if (!row) throw recordNotFound(TEXTS.evidenceNotFound);
  const file = await supabase.storage.from(EVIDENCE_BUCKET).download(row.file_path);
  if (file.error || !file.data) {
    console.error(`evidence file could not be read: ${row.file_path}: ${file.error?.message}`);
    throw data({ error: TEXTS.evidenceDownloadFailed }, { status: 503 });
  }
  return new Response(file.data.stream(), {
    headers: {
      ...EVIDENCE_DOWNLOAD_HEADERS,
      'Content-Type': row.mime_type,
      'Content-Disposition': `attachment; filename="${attachmentName(row.file_name)}"`,
    },
  });
}
