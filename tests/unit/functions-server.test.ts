// Calling a server function: a refusal it answers (with or without a
// message) is told apart from a function that never answered, so the users
// screen can say 'Failed to send invitation' for the one and 'Failed to save
// user' for the other. Real local HTTP servers stand in for the functions.
// (Type-checked with the Node project: it runs node:http servers.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@supabase/supabase-js';
import { afterEach, describe, expect, it } from 'vitest';
import { callFunction } from '../../app/lib/functions.server.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function functionsAnswering(status: number, body: string): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on: a server started and closed again. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const clientFor = (url: string) => createClient(url, 'anon-key', { auth: { persistSession: false } });

describe('callFunction', () => {
  it("reads the function's own message from its error answer", async () => {
    const result = await callFunction(clientFor(await functionsAnswering(400, '{"error":"User already invited"}')), 'invite-user', {});
    expect(result).toEqual({ ok: false, message: 'User already invited', answered: true });
  });

  it('tells a refusal without a message (answered) from a function that never answered', async () => {
    expect(await callFunction(clientFor(await functionsAnswering(500, 'not json')), 'invite-user', {})).toEqual({
      ok: false,
      message: null,
      answered: true,
    });
    expect(await callFunction(clientFor(await closedPort()), 'invite-user', {})).toEqual({ ok: false, message: null, answered: false });
  });

  it('passes the data of a success through', async () => {
    expect(await callFunction(clientFor(await functionsAnswering(200, '{"id":"x"}')), 'invite-user', {})).toEqual({ ok: true, data: { id: 'x' } });
  });
});
