// Which client a request is, for the per-IP limits (sign-in, public links) and
// the audit log: CF-Connecting-IP. Behind Cloudflare's edge that header is set
// by Cloudflare and a client cannot choose it. Anywhere else (`wrangler dev`,
// `npm start`) a client can send its own, and each made-up value would be a
// fresh budget (issue 30). So the Worker believes the header only when told it
// runs behind Cloudflare (BEHIND_CLOUDFLARE=true, set at deploy); otherwise
// every request is the local machine (the dev server listens on 127.0.0.1, so
// that is its only peer) and whatever a client sent is replaced.

/** The address every request is counted as when the Worker is not behind Cloudflare. */
export const LOCAL_CLIENT_IP = '127.0.0.1';

export function behindCloudflare(env: { BEHIND_CLOUDFLARE?: string }): boolean {
  return env.BEHIND_CLOUDFLARE === 'true';
}

/** The request as the rest of the Worker may read it: CF-Connecting-IP is the client's, or the local machine's. */
export function withTrustedClientIp(request: Request, env: { BEHIND_CLOUDFLARE?: string }): Request {
  if (behindCloudflare(env) || request.headers.get('CF-Connecting-IP') === LOCAL_CLIENT_IP) return request;
  const headers = new Headers(request.headers);
  headers.set('CF-Connecting-IP', LOCAL_CLIENT_IP);
  return new Request(request, { headers });
}
