// Deno (hosted Supabase Edge Functions) side of the functions: builds
// FunctionDeps from the environment and serves a handler with CORS.
// Excluded from the Node type check (tsconfig.node.json); Deno resolves
// '@supabase/supabase-js' through supabase/functions/deno.json.
import { createClient } from '@supabase/supabase-js';
import type { FunctionDeps, FunctionHandler, Mailer } from './deps.ts';
import { postToMailApi } from './mail-api.ts';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(handler: (request: Request) => Response | Promise<Response>): unknown;
};

function requireEnv(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

/** Mail through the platform's HTTP mail API, the same request the Worker sends (mail-api.ts). */
function httpMailer(): Mailer {
  return {
    send: (message) =>
      postToMailApi(
        { url: requireEnv('MAIL_API_URL'), key: requireEnv('MAIL_API_KEY'), from: Deno.env.get('MAIL_FROM') ?? 'OpsHub <no-reply@opshub.app>' },
        message,
      ),
  };
}

export function buildDenoDeps(): FunctionDeps {
  const supabaseUrl = requireEnv('SUPABASE_URL');
  const anonKey = requireEnv('SUPABASE_ANON_KEY');
  const serviceRoleKey = requireEnv('SUPABASE_SERVICE_ROLE_KEY');
  const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };
  return {
    supabaseUrl,
    anonKey,
    admin: createClient(supabaseUrl, serviceRoleKey, { auth: noSession }),
    asCaller: (authorization) =>
      createClient(supabaseUrl, anonKey, {
        auth: noSession,
        global: { headers: authorization ? { Authorization: authorization } : {} },
      }),
    mailer: httpMailer(),
    siteUrl: requireEnv('SITE_URL'),
  };
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
};

/** Deno.serve a handler, answering CORS preflights and adding CORS headers. */
export function serveFunction(handler: FunctionHandler): void {
  Deno.serve(async (request) => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: CORS_HEADERS });
    const response = await handler(request, buildDenoDeps());
    for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
    return response;
  });
}
