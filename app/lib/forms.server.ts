// Reading a submitted form without ever failing with a 500: a wrong content
// type, a broken body or an oversized one all become an empty form, which the
// schema then answers with field errors and a 400.

/** Plenty for every form of the product; file uploads set their own limit. */
export const MAX_FORM_BYTES = 64 * 1024;

export async function readFormData(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData> {
  const length = Number(request.headers.get('Content-Length') ?? '0');
  if (length > maxBytes) return new FormData();
  const type = request.headers.get('Content-Type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) {
    return new FormData();
  }
  try {
    const body = await request.arrayBuffer();
    if (body.byteLength > maxBytes) return new FormData();
    return await new Response(body, { headers: { 'Content-Type': type } }).formData();
  } catch {
    return new FormData();
  }
}
