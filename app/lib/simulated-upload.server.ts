// Reading a multipart upload with a hard size limit. The body is streamed and
// counted, and reading stops at the limit, so an oversized upload never sits
// in the Worker's memory whole; the visitor gets a clear field error instead
// of a 500 or a silently empty form.
import type { SubmissionResult } from '@conform-to/react';
import { readCappedBytes } from '~/lib/capped-stream';
import { refuseTextNotUtf8 } from '~/lib/forms.server';

/** Room for the form's other fields beside the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

export type UploadRead = { ok: true; formData: FormData } | { ok: false; reason: 'too-large' | 'unreadable' };

export async function readUploadFormData(request: Request, maxFileBytes: number): Promise<UploadRead> {
  const maxBytes = maxFileBytes + FORM_OVERHEAD_BYTES;
  const type = request.headers.get('Content-Type') ?? '';
  if (!type.startsWith('multipart/form-data') && !type.startsWith('application/x-www-form-urlencoded')) {
    return { ok: true, formData: new FormData() };
  }
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  if (declared > maxBytes) {
    await request.body?.cancel();
    return { ok: false, reason: 'too-large' };
  }
  if (!request.body) return { ok: true, formData: new FormData() };

  let body: Uint8Array<ArrayBuffer> | null;
  let formData: FormData;
  try {
    body = await readCappedBytes(request.body, maxBytes);
    if (!body) return { ok: false, reason: 'too-large' };
    formData = await new Response(body, { headers: { 'Content-Type': type } }).formData();
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  refuseTextNotUtf8(body, type, formData);
  return { ok: true, formData };
}

/** A submission result carrying one field's error, for a body that could not be parsed at all. */
export function fieldErrorResult(field: string, message: string): SubmissionResult<string[]> {
  return { status: 'error', initialValue: {}, error: { [field]: [message] } };
}
