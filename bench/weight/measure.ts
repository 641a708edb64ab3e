// Page weight: what a first visit to each route downloads, read from the HTML
// the built Worker serves (its <script>, module preloads and stylesheets) and
// the built assets in <build>/client. Used by `npm run bench:weight` and by the
// budget test in tests/e2e/page-weight.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { randomToken, tokenHash } from '../../supabase/functions/_shared/token.ts';
import { Session } from '../../tests/support/session.ts';

/**
 * Budgets (docs/decisions/006-page-weight-budget.md): the marketing pages ship
 * no JavaScript at all; every other page at most 100 KB gzip of JavaScript
 * beyond the framework runtime (React, React DOM, React Router: the client
 * entry and the runtime chunk, the same two files on every page).
 */
export const APP_JS_BUDGET_GZIP = 100 * 1024;
export const MARKETING_PATHS = new Set(['/', '/pricing']);
/**
 * The sign-in and invitation pages (docs/decisions/028): at most 100 KB gzip
 * of JavaScript in all, framework included, inline scripts counted.
 */
export const TOTAL_JS_BUDGET_GZIP = 100 * 1024;
export const isPlainFormPath = (path: string) => path === '/auth' || path.startsWith('/invite/');
const FRAMEWORK_CHUNK = /^\/assets\/(entry\.client|jsx-runtime)-[\w-]+\.js$/;

export interface Bytes {
  raw: number;
  gzip: number;
}

export interface PageWeight {
  path: string;
  status: number;
  html: Bytes;
  css: Bytes;
  js: Bytes;
  /** The JavaScript beyond the framework runtime. */
  appJs: Bytes;
  /** The text of the page's inline scripts (hydration data, the form enhancer). */
  inlineJs: Bytes;
  jsFiles: number;
  budget: number;
  overBudget: boolean;
}

/** Every page of the route table (app/routes.ts), with a concrete URL for each. */
export function pagePaths(invitationToken: string): string[] {
  return [
    '/',
    '/pricing',
    '/auth',
    `/invite/${invitationToken}`,
    '/dashboard',
    '/leads',
    '/quotes',
    '/messages',
    '/invoices',
    '/clients',
    '/shipments',
    '/documents',
    '/rfp',
    '/compliance',
    '/automations',
    '/analytics',
    '/settings/website',
    '/settings/modules',
    '/settings/templates',
    '/settings/integrations',
    '/settings/users',
    '/settings/account',
    '/settings/audit-logs',
    '/no-such-page',
  ];
}

const bytesOf = (content: Buffer | string): Bytes => ({ raw: Buffer.byteLength(content), gzip: gzipSync(content).length });
const add = (a: Bytes, b: Bytes): Bytes => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip });

/** The same-origin asset URLs a page asks for: scripts, module preloads and stylesheets. */
export function assetsOf(html: string): { js: string[]; css: string[] } {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const src = /\b(?:src|href)="(\/[^"]+)"/.exec(tag)?.[1];
    if (!src) continue;
    if (/\.m?js(\?|$)/.test(src)) js.add(src);
    else if (/\brel="stylesheet"/.test(tag) || /\.css(\?|$)/.test(src)) css.add(src);
  }
  // The inline module script imports the client entry and the route modules.
  for (const [, src] of html.matchAll(/import\(?\s*"(\/assets\/[^"]+\.js)"/g)) js.add(src);
  return { js: [...js], css: [...css] };
}

export async function measurePage(appUrl: string, path: string, cookie: string, buildDir: string): Promise<PageWeight> {
  const response = await fetch(new URL(path, appUrl), { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  const html = await response.text();
  const assets = assetsOf(html);
  const sum = (urls: string[]) =>
    urls.reduce<Bytes>((total, url) => add(total, bytesOf(readFileSync(join(buildDir, 'client', url.split('?')[0])))), { raw: 0, gzip: 0 });
  const js = sum(assets.js);
  const appJs = sum(assets.js.filter((url) => !FRAMEWORK_CHUNK.test(url)));
  const inlineJs = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map(([, text]) => text)
    .filter((text) => text.trim() !== '')
    .reduce<Bytes>((total, text) => add(total, bytesOf(text)), { raw: 0, gzip: 0 });
  const marketing = MARKETING_PATHS.has(path);
  const plainForm = isPlainFormPath(path);
  const budget = marketing ? 0 : plainForm ? TOTAL_JS_BUDGET_GZIP : APP_JS_BUDGET_GZIP;
  const counted = marketing ? js.gzip : plainForm ? js.gzip + inlineJs.gzip : appJs.gzip;
  return {
    path,
    status: response.status,
    html: bytesOf(html),
    css: sum(assets.css),
    js,
    appJs,
    inlineJs,
    jsFiles: assets.js.length,
    budget,
    overBudget: counted > budget,
  };
}

/** Signs in through the real /auth form; returns the session cookies for later requests. */
/** The Cookie header of a visitor signed in through the sign-in form. */
export async function signInCookie(appUrl: string, email: string, password: string): Promise<string> {
  const session = new Session(new URL(appUrl).origin);
  await session.signIn(email, password);
  return session.cookieHeader;
}

const kb = (n: number) => (n / 1024).toFixed(1);

export function weightTable(pages: PageWeight[]): string {
  const lines = [
    '| route | status | HTML raw / gzip KB | CSS raw / gzip KB | JS files | JS raw / gzip KB | of which beyond the framework, gzip KB | inline scripts raw / gzip KB | budget gzip KB |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const page of pages) {
    const flag = page.overBudget ? ' **OVER BUDGET**' : '';
    lines.push(
      `| ${page.path} | ${page.status} | ${kb(page.html.raw)} / ${kb(page.html.gzip)} | ${kb(page.css.raw)} / ${kb(page.css.gzip)} | ${page.jsFiles} | ${kb(page.js.raw)} / ${kb(page.js.gzip)} | ${kb(page.appJs.gzip)}${flag} | ${kb(page.inlineJs.raw)} / ${kb(page.inlineJs.gzip)} | ${kb(page.budget)}${isPlainFormPath(page.path) ? ' in all' : ''} |`,
    );
  }
  return lines.join('\n');
}

/**
 * An open invitation into the demo account, made with the service role: the
 * database keeps only a token's hash, so the page needs one whose token is known.
 */
async function openInvitationToken(backendUrl: string, serviceRoleKey: string): Promise<string> {
  const headers = { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}`, 'content-type': 'application/json' };
  const accounts = await fetch(`${backendUrl}/rest/v1/accounts?select=id&name=eq.OpsHub%20Pro`, { headers });
  const [{ id }] = (await accounts.json()) as { id: string }[];
  const token = randomToken();
  const inserted = await fetch(`${backendUrl}/rest/v1/user_invitations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ account_id: id, email: `weight-${token.slice(0, 8)}@opshub.test`, role: 'supplier', token_hash: await tokenHash(token) }),
  });
  if (!inserted.ok) throw new Error(`creating an invitation failed: ${inserted.status} ${await inserted.text()}`);
  return token;
}

/**
 * Every page of the route table, as a first visitor gets it: the public ones
 * anonymously, the signed-in ones as the demo admin. The invitation page uses
 * an open invitation made for it.
 */
export async function measureAllPages(
  appUrl: string,
  backendUrl: string,
  serviceRoleKey: string,
  buildDir: string,
  /** Only the pages whose path starts with one of these (all when absent). */
  only?: string[],
): Promise<{ pages: PageWeight[]; token: string }> {
  const token = await openInvitationToken(backendUrl, serviceRoleKey);
  const cookie = await signInCookie(appUrl, 'demo@opshub.test', 'demo1234');
  const anonymous = new Set(['/', '/pricing', '/auth', `/invite/${token}`, '/no-such-page']);
  const pages: PageWeight[] = [];
  const chosen = pagePaths(token).filter((path) => !only || only.some((start) => path.startsWith(start)));
  for (const path of chosen) pages.push(await measurePage(appUrl, path, anonymous.has(path) ? '' : cookie, buildDir));
  return { pages, token };
}
