// The bid page takes a file (a multipart post) and plain forms on the same action: a multipart post may carry
// the file's size beside its fields, any other post only what every form of the product may (64 KB).
// (As the compliance item's page reads its posts.)
import { readFormData } from '~/lib/forms.server';
import { readUploadFormData, type UploadRead } from '~/lib/simulated-upload.server';

export async function readBidPost(request: Request, maxFileBytes: number): Promise<UploadRead> {
  const type = request.headers.get('Content-Type') ?? '';
  if (type.startsWith('multipart/form-data')) return readUploadFormData(request, maxFileBytes);
  return { ok: true, formData: await readFormData(request) };
}
