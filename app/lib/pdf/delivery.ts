// Handing a rendered PDF over: as a download (never cached: a draft changes,
// a signed quote names its signer) or as a mail attachment (base64, as the
// mail senders take it).

/** 'Q-2026-0007' → 'Q-2026-0007.pdf'; anything unsafe in a file name becomes '-'. */
export function pdfFileName(number: string, fallback: string): string {
  return `${(number || fallback).replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`;
}

export function pdfResponse(bytes: Uint8Array<ArrayBuffer>, fileName: string, extraHeaders: Record<string, string> = {}): Response {
  return new Response(bytes, {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'private, no-store',
      ...extraHeaders,
    },
  });
}

export function pdfAttachment(bytes: Uint8Array, fileName: string): { filename: string; content: string; contentType: string } {
  let binary = '';
  // In slices: String.fromCharCode(...all) would overflow the call stack on a large PDF.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { filename: fileName, content: btoa(binary), contentType: 'application/pdf' };
}
