// Shared moves of the module-screen tests (messages, invoices, shipments,
// documents, RFP, compliance, automations, analytics): read what a page says,
// find which controls the server marked invalid, and post a create dialog.
import { expect } from 'vitest';
import { pageText, signIn, type Visitor } from './app';
import { DEMO_ADMIN } from '../../support/accounts';

export async function demoAdmin(): Promise<Visitor> {
  return signIn(DEMO_ADMIN);
}

/** The page's text content without tags or entities, with spaces collapsed: what a reader reads. */
export function readable(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ');
}

/** Loads a signed-in page and returns its HTML, checking it answered 200. */
export async function page(visitor: Visitor, path: string): Promise<string> {
  const response = await visitor.get(path);
  expect(response.status, path).toBe(200);
  return pageText(response);
}

/** The names of the form controls rendered with aria-invalid="true". */
export function invalidFields(html: string): string[] {
  const names: string[] = [];
  for (const [tag] of html.matchAll(/<(?:input|select|textarea)\b[^>]*>/g)) {
    if (!/\saria-invalid="true"/.test(tag)) continue;
    const name = /\sname="([^"]+)"/.exec(tag)?.[1];
    if (name) names.push(name);
  }
  return names.sort();
}

/** The opening tag of the control named `name`. */
export function control(html: string, name: string): string {
  const tag = [...html.matchAll(/<(?:input|select|textarea)\b[^>]*>/g)].find(([t]) => t.includes(` name="${name}"`))?.[0];
  if (!tag) throw new Error(`no control named ${name}`);
  return tag;
}

/** The value of the <option selected> of a select named `name`. */
export function selectedOption(html: string, name: string): string | undefined {
  const start = html.indexOf(control(html, name));
  const select = html.slice(start, html.indexOf('</select>', start));
  return /<option[^>]*selected=""[^>]*value="([^"]*)"|<option[^>]*value="([^"]*)"[^>]*selected=""/.exec(select)?.slice(1).find(Boolean);
}

/**
 * Posts the dialog with one field left out or changed and checks the answer:
 * a 400, the form back with that field (and only that field) marked invalid,
 * and its error text on the page.
 */
export async function expectRefused(
  visitor: Visitor,
  path: string,
  fields: Record<string, string> | FormData,
  field: string,
  message: string,
): Promise<string> {
  const response = await visitor.post(path, fields);
  expect(response.status, `${field} on ${path}`).toBe(400);
  const html = await pageText(response);
  expect(invalidFields(html), `${field} on ${path}`).toEqual([field]);
  expect(readable(html), `${field} on ${path}`).toContain(message);
  return html;
}

export function without(fields: Record<string, string>, name: string): Record<string, string> {
  const { [name]: _dropped, ...rest } = fields;
  return rest;
}

/**
 * Posts a valid dialog and follows the redirect back to the list: the list
 * page, dialog closed, with the success toast.
 */
export async function expectCreated(
  visitor: Visitor,
  path: string,
  fields: Record<string, string> | FormData,
  listPath: string,
  toast: string,
): Promise<string> {
  const response = await visitor.post(path, fields);
  expect(response.status, await responseHint(response)).toBe(302);
  expect(response.headers.get('Location')).toBe(listPath);
  const list = await visitor.follow(response);
  expect(list.status).toBe(200);
  const html = await pageText(list);
  expect(readable(html)).toContain(toast);
  expect(html).not.toContain('role="dialog"');
  return html;
}

async function responseHint(response: Response): Promise<string> {
  if (response.status === 302) return '';
  return readable(await response.clone().text()).slice(0, 500);
}
