// The local GoTrue: answers /auth/v1/* the way Supabase Auth (behind Kong) does,
// so the real @supabase/supabase-js auth client works against it unchanged.
import type { BackendContext } from '../context.ts';
import { checkApiKey } from './guards.ts';
import { AuthError, errorResponse, json } from './http.ts';
import { adminUsers } from './routes/admin.ts';
import { logout } from './routes/logout.ts';
import { health, jwks, settings } from './routes/meta.ts';
import { signup } from './routes/signup.ts';
import { token } from './routes/token.ts';
import { getUser, putUser } from './routes/user.ts';
import { generateLink, recover, resend } from './routes/links.ts';
import { verifyGet, verifyPost } from './routes/verify.ts';

export { configureAuth } from './settings.ts';

type Handler = (request: Request, ctx: BackendContext) => Promise<Response> | Response;

const ROUTES: Record<string, Partial<Record<string, Handler>>> = {
  '/signup': { POST: signup },
  '/token': { POST: token },
  '/logout': { POST: logout },
  '/user': { GET: getUser, PUT: putUser },
  '/verify': { GET: verifyGet, POST: verifyPost },
  '/recover': { POST: recover },
  '/resend': { POST: resend },
  '/admin/generate_link': { POST: generateLink },
  '/settings': { GET: (_request, ctx) => settings(ctx) },
  '/health': { GET: health },
  '/.well-known/jwks.json': { GET: jwks },
  '/admin/users': { GET: adminUsers, POST: adminUsers },
};

// Kong lets these through without an apikey: mail links are opened by browsers.
const OPEN_PATHS = new Set(['/verify', '/.well-known/jwks.json']);

const ADMIN_USER_PATH = /^\/admin\/users\/([^/]+)$/;

function route(path: string, method: string): Handler | undefined {
  const adminUser = ADMIN_USER_PATH.exec(path);
  if (adminUser) {
    const id = decodeURIComponent(adminUser[1]);
    return (request, ctx) => adminUsers(request, ctx, id);
  }
  return ROUTES[path]?.[method];
}

export async function handleAuth(request: Request, ctx: BackendContext): Promise<Response> {
  try {
    const path = new URL(request.url).pathname.replace(/^\/auth\/v1/, '').replace(/\/+$/, '') || '/';
    if (request.method === 'OPTIONS') return new Response(null, { status: 204 });
    if (!OPEN_PATHS.has(path)) {
      const refusal = await checkApiKey(request, ctx);
      if (refusal) return refusal;
    }
    const handler = route(path, request.method);
    if (!handler) {
      const known = ROUTES[path] !== undefined;
      return known
        ? errorResponse(new AuthError(405, 'method_not_allowed', 'Method Not Allowed'))
        : errorResponse(new AuthError(404, 'not_found', 'Not Found'));
    }
    return await handler(request, ctx);
  } catch (error) {
    if (error instanceof AuthError) return errorResponse(error);
    if (!ctx.quiet) console.error('[auth] unexpected error:', error);
    return json({ code: 500, error_code: 'unexpected_failure', msg: 'Unexpected failure, please check server logs for more information' }, 500);
  }
}
