// How an object's bytes are served. Storage answers on the backend's own
// origin, the origin of the mail outbox and the API, so a file someone
// uploaded must never run there as a page: an HTML or SVG file opened through
// a signed link ran its script and read /_outbox (issue 30). Every object is
// therefore served as data, never as a document, as hosted Storage does:
//  - X-Content-Type-Options: nosniff, so the browser takes the type we say;
//  - Content-Security-Policy: default-src 'none'; sandbox, so even a page
//    that renders loads nothing, runs nothing and has no origin of its own;
//  - Content-Disposition: attachment for everything but a few raster image
//    types (the ones an <img> shows and that carry no script; SVG is not one);
//  - the types a browser would run (HTML, SVG, XML, JavaScript) and any type
//    not on the list below are labelled text/plain.

/** Shown inline when no download was asked for: raster images, which cannot carry script. */
export const INLINE_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * Types served under their own name (as a download, except the images above).
 * None of them is a type a browser renders as a document with script.
 */
export const LABELLED_TYPES: readonly string[] = [
  ...INLINE_IMAGE_TYPES,
  'application/pdf',
  'application/json',
  'application/octet-stream',
  'application/zip',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'text/plain',
  'text/csv',
];

/** `text/html; charset=utf-8` → `text/html`. */
export function baseType(mimeType: string | null | undefined): string {
  return (mimeType ?? '').split(';')[0].trim().toLowerCase();
}

/** The Content-Type an object with this stored type is served with. */
export function servedContentType(mimeType: string | null | undefined): string {
  const base = baseType(mimeType);
  if (!LABELLED_TYPES.includes(base)) return 'text/plain; charset=utf-8';
  // The stored value may carry parameters (a charset); anything but the labelled type itself is dropped.
  const charset = /;\s*charset=([A-Za-z0-9_-]+)\s*$/i.exec(mimeType ?? '')?.[1];
  return charset && base.startsWith('text/') ? `${base}; charset=${charset}` : base;
}

/**
 * `download` as Storage's query parameter: null (not asked), '' (asked,
 * no name) or the file name to save as.
 */
function disposition(mimeType: string | null | undefined, download: string | null): string | null {
  if (download !== null && download !== '') {
    const encoded = encodeURIComponent(download);
    return `attachment; filename=${encoded}; filename*=UTF-8''${encoded}`;
  }
  if (download === '') return 'attachment;';
  return INLINE_IMAGE_TYPES.includes(baseType(mimeType)) ? null : 'attachment';
}

/** The headers that make a served object data, whatever was uploaded. */
export function objectSafetyHeaders(mimeType: string | null | undefined, download: string | null): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': servedContentType(mimeType),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  };
  const value = disposition(mimeType, download);
  if (value) headers['Content-Disposition'] = value;
  return headers;
}
