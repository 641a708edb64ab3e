// File names and hashes shared by the features that store uploads (documents,
// compliance evidence): the stored name of an upload and its SHA-256.

/** The extension of a file name, lower case, without the dot ('' when none). */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/**
 * The file's name as it may be stored: the last path segment only, no control
 * characters, and only the characters Storage accepts in a key (others become
 * '_'); never empty, at most 100 characters, its extension kept.
 */
export function safeFileName(fileName: string): string {
  // eslint-disable-next-line no-control-regex
  const base = fileName.split(/[/\\]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const extension = extensionOf(base);
  let stem = (extension ? base.slice(0, -(extension.length + 1)) : base)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_.() -]/g, '_')
    .replace(/^[.\s]+/, '')
    .slice(0, 90);
  if (stem.replace(/[_\s.]/g, '') === '') stem = 'document';
  return extension ? `${stem}.${extension.replace(/[^a-z0-9]/g, '')}` : stem;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
