// /functions/v1/<name>: the project's server functions (supabase/functions/<name>/handler.ts),
// called with the deps hosted Supabase would give them, but pointing at this backend.
// Like Supabase's edge gateway, a valid JWT is required unless config.toml says
// `verify_jwt = false` for the function.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from '@supabase/supabase-js';
import type { FunctionDeps, FunctionHandler } from '../functions/_shared/deps.ts';
import type { BackendContext } from './context.ts';
import { verifyJwt } from './keys.ts';
import { PROJECT_ROOT } from './migrate.ts';

export const DEFAULT_FUNCTIONS_DIR = join(PROJECT_ROOT, 'supabase/functions');
const CONFIG_FILE = join(PROJECT_ROOT, 'supabase/config.toml');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

export function buildFunctionDeps(ctx: BackendContext): FunctionDeps {
  return {
    supabaseUrl: ctx.url,
    anonKey: ctx.anonKey,
    admin: createClient(ctx.url, ctx.serviceRoleKey, { auth: noSession }),
    asCaller: (authorization) =>
      createClient(ctx.url, ctx.anonKey, {
        auth: noSession,
        global: { headers: authorization ? { Authorization: authorization } : {} },
      }),
    mailer: { send: (message) => ctx.outbox.send(message) },
    siteUrl: ctx.siteUrl,
  };
}

/** `[functions.<name>] verify_jwt = false` in supabase/config.toml. */
function verifiesJwt(name: string, configFile: string): boolean {
  if (!existsSync(configFile)) return true;
  const section = readFileSync(configFile, 'utf8').split(/^\[/m).find((s) => s.startsWith(`functions.${name}]`));
  return !(section && /^\s*verify_jwt\s*=\s*false\s*$/m.test(section));
}

export function createFunctionsHandler(ctx: BackendContext, functionsDir = DEFAULT_FUNCTIONS_DIR, configFile = CONFIG_FILE) {
  let deps: FunctionDeps | null = null;
  return async (request: Request, name: string): Promise<Response> => {
    const file = join(functionsDir, name, 'handler.ts');
    if (!/^[a-z0-9-]+$/.test(name) || !existsSync(file)) {
      return json(404, { code: 'NOT_FOUND', message: 'Requested function was not found' });
    }
    if (verifiesJwt(name, configFile)) {
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
      const valid = token ? await verifyJwt(token, ctx).then(() => true, () => false) : false;
      if (!valid) return json(401, { code: 401, message: token ? 'Invalid JWT' : 'Missing authorization header' });
    }
    const module = (await import(pathToFileURL(file).href)) as { default?: FunctionHandler };
    if (typeof module.default !== 'function') {
      return json(500, { code: 'BOOT_ERROR', message: `supabase/functions/${name}/handler.ts has no default export` });
    }
    deps ??= buildFunctionDeps(ctx);
    try {
      return await module.default(request, deps);
    } catch (error) {
      if (!ctx.quiet) console.error(`function ${name} failed:`, error);
      return json(500, { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' });
    }
  };
}
