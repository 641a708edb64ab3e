// Node module hooks for a bench that calls the app's Worker code in process
// (registered by helpdesk-inbound-email.ts): the app's `~/` imports and its
// extensionless relative ones resolved as Vite resolves them, and the
// `cloudflare:` modules (only reached by code the bench does not run:
// `env` of cloudflare:workers, sockets for SMTP) stood in for by empty ones.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const APP = new URL('../../app/', import.meta.url);
const CLOUDFLARE = `data:text/javascript,${encodeURIComponent(
  'export const env = {}; export const connect = () => { throw new Error("no sockets in the bench"); }; export class DurableObject {} export class WorkerEntrypoint {}',
)}`;

/**
 * @param {string} specifier
 * @param {{ parentURL?: string }} context
 * @param {(specifier: string, context: { parentURL?: string }) => Promise<unknown>} next
 */
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('cloudflare:')) return { url: CLOUDFLARE, shortCircuit: true };
  let target = null;
  if (specifier.startsWith('~/')) target = new URL(specifier.slice(2), APP);
  else if (/^\.\.?\//.test(specifier) && context.parentURL?.startsWith('file:') && !/\.[cm]?[jt]sx?$/.test(specifier)) target = new URL(specifier, context.parentURL);
  if (target) {
    const path = fileURLToPath(target);
    for (const ext of ['.ts', '.tsx', '/index.ts', '']) {
      if (existsSync(path + ext) && (ext || /\.[a-z]+$/.test(path))) return next(pathToFileURL(path + ext).href, context);
    }
  }
  return next(specifier, context);
}
