// Public link tokens (invoice links, CSAT links): 32 random bytes in base64url,
// 43 characters. The database keeps only a token's SHA-256.

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** A new token. */
export function newToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** A new token and the hash the database keeps of it (as bytea hex). */
export async function newLinkToken(): Promise<{ token: string; hashHex: string }> {
  const token = newToken();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return { token, hashHex: `\\x${[...digest].map((b) => b.toString(16).padStart(2, '0')).join('')}` };
}
