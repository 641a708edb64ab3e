// The SMS/WhatsApp media fetcher's redirects (decision 089), against two real
// local HTTP servers (two origins): the account's credentials go to the API's
// origin only, never to where its redirect leads; each hop passes the address
// checks; at most 3 redirects.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchMedia, MediaFailed } from '../../app/features/helpdesk/channels/media-fetch.ts';

const seen: { server: string; path: string; authorization: string | undefined }[] = [];
let api: Server;
let cdn: Server;
let apiOrigin: string;
let cdnOrigin: string;

const serve = (name: string, handle: (path: string) => { status: number; headers?: Record<string, string>; body?: string }) =>
  createServer((request, response) => {
    const path = request.url ?? '';
    seen.push({ server: name, path, authorization: request.headers.authorization });
    const answer = handle(path);
    response.writeHead(answer.status, answer.headers).end(answer.body ?? '');
  });
const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  cdn = serve('cdn', () => ({ status: 200, headers: { 'Content-Type': 'image/gif' }, body: 'GIF89a' }));
  cdnOrigin = await listen(cdn);
  api = serve('api', (path) => {
    if (path === '/media/elsewhere') return { status: 307, headers: { Location: `${cdnOrigin}/copy` } };
    if (path === '/media/private') return { status: 302, headers: { Location: 'https://10.0.0.8/copy' } };
    if (path.startsWith('/media/loop')) return { status: 302, headers: { Location: `/media/loop${path.length}` } };
    return { status: 404 };
  });
  apiOrigin = await listen(api);
});
afterAll(async () => {
  await Promise.all([api, cdn].map((s) => new Promise((resolve) => s.close(resolve))));
});

const options = () => ({
  authorization: 'Basic QUM6dG9rZW4=', authOrigin: apiOrigin, timeoutMs: 5000, maxBytes: 1024,
  allowHosts: `${new URL(apiOrigin).host},${new URL(cdnOrigin).host}`,
});

describe('fetching SMS media', () => {
  it('sends the credentials to the API only, not to the origin its redirect leads to', async () => {
    seen.length = 0;
    const got = await fetchMedia(`${apiOrigin}/media/elsewhere`, options());
    expect(new TextDecoder().decode(got.bytes)).toBe('GIF89a');
    expect(got.contentType).toBe('image/gif');
    expect(seen).toEqual([
      { server: 'api', path: '/media/elsewhere', authorization: 'Basic QUM6dG9rZW4=' },
      { server: 'cdn', path: '/copy', authorization: undefined },
    ]);
  });

  it('refuses a redirect to a private address and more than 3 redirects', async () => {
    await expect(fetchMedia(`${apiOrigin}/media/private`, options())).rejects.toThrow(MediaFailed);
    await expect(fetchMedia(`${apiOrigin}/media/private`, options())).rejects.toThrow('Use the address of a public server');
    seen.length = 0;
    await expect(fetchMedia(`${apiOrigin}/media/loop`, options())).rejects.toThrow('The media redirects more than 3 times');
    expect(seen).toHaveLength(4);
    // Without the allowance a test has, a plain-http or loopback URL is refused before any request.
    seen.length = 0;
    await expect(fetchMedia(`${apiOrigin}/media/elsewhere`, { ...options(), allowHosts: undefined })).rejects.toThrow('https://');
    expect(seen).toEqual([]);
  });
});
