// The server's fetch against a real HTTP server that misbehaves on cue.
// (Type-checked with the Node project: it runs a node:http server.)
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BackendTimeoutError, createResilientFetch } from '../../app/lib/resilient-fetch.ts';

let server: Server;
let baseUrl: string;
let seen: string[];
let answer: (request: IncomingMessage, response: ServerResponse, count: number) => void;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.method ?? '?');
    answer(request, response, seen.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen = [];
});

const failFirst = (failures: number, status: number) => (_: IncomingMessage, response: ServerResponse, count: number) => {
  response.writeHead(count <= failures ? status : 200).end(count <= failures ? 'busy' : 'ok');
};
const quick = createResilientFetch({ timeoutMs: 500, retries: 2, backoffMs: 5 });

describe('createResilientFetch', () => {
  it('retries a read on 502, 503 and 504 until it is answered', async () => {
    for (const status of [502, 503, 504]) {
      seen = [];
      answer = failFirst(2, status);
      const response = await quick(`${baseUrl}/rest/v1/leads`);
      expect([status, response.status, await response.text(), seen.length]).toEqual([status, 200, 'ok', 3]);
    }
  });

  it('gives up after its retries and hands back the last answer', async () => {
    answer = failFirst(10, 503);
    const response = await quick(`${baseUrl}/rest/v1/leads`);
    expect(response.status).toBe(503);
    expect(seen).toEqual(['GET', 'GET', 'GET']);
  });

  it('does not retry other errors', async () => {
    answer = failFirst(1, 500);
    expect((await quick(`${baseUrl}/rest/v1/leads`)).status).toBe(500);
    expect(seen).toHaveLength(1);
  });

  it('never retries a write, whatever the answer', async () => {
    answer = failFirst(1, 503);
    const response = await quick(`${baseUrl}/rest/v1/leads`, { method: 'POST', body: '{"name":"x"}' });
    expect(response.status).toBe(503);
    expect(seen).toEqual(['POST']);
  });

  it('sends a write body intact', async () => {
    let body = '';
    answer = (request, response) => {
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => response.writeHead(201).end());
    };
    await quick(`${baseUrl}/rest/v1/leads`, { method: 'POST', body: '{"name":"Ada"}', headers: { 'content-type': 'application/json' } });
    expect(body).toBe('{"name":"Ada"}');
  });

  it('retries a read whose connection is refused, then throws the network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    let sleeps = 0;
    const counting = createResilientFetch({ timeoutMs: 500, retries: 2, backoffMs: 5, sleep: async () => void sleeps++ });
    await expect(counting(`http://127.0.0.1:${port}/auth/v1/user`)).rejects.toThrow(TypeError);
    expect(sleeps).toBe(2);
  });

  it('ends a request that gets no answer at its deadline, without retrying it', async () => {
    answer = () => {}; // never answers
    await expect(quick(`${baseUrl}/rest/v1/leads`)).rejects.toThrow(BackendTimeoutError);
    expect(seen).toHaveLength(1);
  });

  it("respects the caller's own abort", async () => {
    answer = () => {};
    const controller = new AbortController();
    const pending = quick(`${baseUrl}/rest/v1/leads`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(1);
  });
});
