// An inbound mail's attachment (decision 071), a resource route: the row read
// with the signed-in user's client (row-level security: staff of the account,
// nobody else), the bytes downloaded with the same client (Storage's policy
// on the helpdesk bucket decides again), answered as a download that a
// browser never renders or sniffs: attachment, nosniff, a sandboxing CSP.
import { data } from 'react-router';
import type { Route } from './+types/attachment-download';
import { requireUser } from '~/lib/auth.server';
import { recordId, recordNotFound } from '~/lib/record-page.server';
import { ATTACHMENTS_BUCKET } from './inbound/receive.server';

const NOT_FOUND = 'Attachment not found';

/** An RFC 6266 filename: ASCII fallback plus the UTF-8 name. */
function disposition(name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9 ._()-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { supabase } = await requireUser(request, context);
  const conversationId = recordId(params.id, NOT_FOUND);
  const id = recordId(params.attachmentId, NOT_FOUND);
  const { data: attachment, error } = await supabase
    .from('message_attachments')
    .select('file_name, mime_type, storage_path')
    .eq('id', id)
    .eq('conversation_id', conversationId)
    .maybeSingle();
  if (error) throw new Error(`attachment failed to load: ${error.message}`);
  // An SMS/WhatsApp media item not fetched (yet) has no object (decision 089).
  if (!attachment || !attachment.storage_path) throw recordNotFound(NOT_FOUND);
  const file = await supabase.storage.from(ATTACHMENTS_BUCKET).download(attachment.storage_path);
  if (file.error || !file.data) throw data({ error: 'The attachment could not be read. Try again.' }, { status: 503 });
  return new Response(file.data, {
    headers: {
      // A sender's claimed type is not trusted to render: every attachment is bytes to save.
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': disposition(attachment.file_name),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    },
  });
}
