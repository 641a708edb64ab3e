// The HTTP front: CORS like Supabase's gateway, routing to auth and functions,
// the mail outbox, and JSON errors for anything else.
import { expect, it } from 'vitest';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { describeOnEachDatabase, uniqueName } from './harness.ts';

describeOnEachDatabase('the backend server', (fx) => {
  it('answers CORS preflight requests for the headers supabase-js sends', async () => {
    const response = await fetch(`${fx().backend.url}/rest/v1/books`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'authorization, apikey, prefer' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = response.headers.get('access-control-allow-headers')!;
    for (const header of ['authorization', 'x-client-info', 'apikey', 'content-type', 'prefer', 'range', 'accept-profile', 'content-profile']) {
      expect(allowed).toContain(header);
    }
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
  });

  it('adds CORS headers to ordinary responses and exposes Content-Range', async () => {
    const response = await fx().fetch('/rest/v1/tags?select=id', { headers: { Prefer: 'count=exact' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('Content-Range');
  });

  it('routes /auth/v1 to the local GoTrue', async () => {
    const response = await fx().fetch('/auth/v1/settings');
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveProperty('external');
  });

  it('runs a function with the deps of this backend, passing the request through', async () => {
    const sub = crypto.randomUUID();
    const caller = await fx().asUser(sub);
    await caller.from('notes').insert({ body: 'mine' });
    const { data, error } = await caller.functions.invoke('echo', { body: { hello: 'world' } });
    expect(error).toBeNull();
    expect(data).toEqual({ method: 'POST', path: '/functions/v1/echo', body: { hello: 'world' }, books: expect.any(Number), callerNotes: 1 });
    expect(data.books).toBeGreaterThanOrEqual(7);
  });

  it('keeps mail a function sends in the outbox, lists it and clears it', async () => {
    const to = `${uniqueName('reader')}@example.test`;
    await fx().anon.functions.invoke('echo', { body: { mail: to } });
    const listed = (await (await fetch(`${fx().backend.url}/_outbox`)).json()) as { to: string; subject: string; text: string; sentAt: string }[];
    const mail = listed.find((m) => m.to === to);
    expect(mail).toMatchObject({ subject: 'Hello from echo', text: `${fx().backend.ctx.siteUrl}/hello` });
    expect(Date.parse(mail!.sentAt)).not.toBeNaN();
    expect((await fetch(`${fx().backend.url}/_outbox`, { method: 'DELETE' })).status).toBe(204);
    expect(await (await fetch(`${fx().backend.url}/_outbox`)).json()).toEqual([]);
  });

  // Issue 30: a page on another origin (or a file served on this one) must not read the mail, with its sign-in and signing links.
  it('keeps the outbox and the mail API from web pages: no CORS, and a browser request from another origin refused', async () => {
    const to = `${uniqueName('kept')}@example.test`;
    await fx().anon.functions.invoke('echo', { body: { mail: to } });
    const own = await fetch(`${fx().backend.url}/_outbox`);
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    // Opened in a tab (no Origin, Sec-Fetch-Site: none) it answers.
    expect((await fetch(`${fx().backend.url}/_outbox`, { headers: { 'Sec-Fetch-Site': 'none' } })).status).toBe(200);
    const browserRequests: Record<string, string>[] = [{ Origin: 'https://evil.example' }, { Origin: 'http://127.0.0.1:8787' }, { 'Sec-Fetch-Site': 'cross-site' }, { 'Sec-Fetch-Site': 'same-site' }];
    for (const headers of browserRequests) {
      const read = await fetch(`${fx().backend.url}/_outbox`, { headers });
      expect(read.status).toBe(403);
      expect(read.headers.get('access-control-allow-origin')).toBeNull();
      expect(JSON.stringify(await read.json())).not.toContain(to);
      const preflight = await fetch(`${fx().backend.url}/_outbox`, { method: 'OPTIONS', headers: { ...headers, 'Access-Control-Request-Method': 'DELETE' } });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect((await fetch(`${fx().backend.url}/_outbox`, { method: 'DELETE', headers })).status).toBe(403);
      const planted = await fetch(`${fx().backend.url}/_mail`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'text/plain' },
        body: JSON.stringify({ to: 'dev@example.test', subject: 'Reset your password', text: 'https://evil.example/reset' }),
      });
      expect(planted.status).toBe(403);
    }
    const listed = (await (await fetch(`${fx().backend.url}/_outbox`)).json()) as { to: string; subject: string }[];
    expect(listed.some((m) => m.to === to)).toBe(true);
    expect(listed.some((m) => m.subject === 'Reset your password')).toBe(false);
  });

  it('requires a valid JWT for functions that verify it', async () => {
    const missing = await fetch(`${fx().backend.url}/functions/v1/echo`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(401);
    const bad = await fetch(`${fx().backend.url}/functions/v1/echo`, { method: 'POST', body: '{}', headers: { Authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
  });

  it('answers 404 for unknown or invalid function names, and 500 when a function throws', async () => {
    for (const name of ['nope', '_shared', '..%2F..%2Fpackage.json', 'Echo', 'echo%00']) {
      const response = await fx().fetch(`/functions/v1/${name}`, { method: 'POST', headers: { Authorization: `Bearer ${fx().backend.anonKey}` } });
      expect(response.status, name).toBe(404);
    }
    const { error } = await fx().anon.functions.invoke('echo', { body: { fail: true } });
    expect(error).toBeInstanceOf(FunctionsHttpError);
    expect((error as FunctionsHttpError).context.status).toBe(500);
  });

  it('answers unknown paths with a JSON 404, and survives a malformed request line', async () => {
    const response = await fetch(`${fx().backend.url}/nowhere`);
    expect(response.status).toBe(404);
    expect(await response.json()).toHaveProperty('message');
    const { connect } = await import('node:net');
    const port = Number(new URL(fx().backend.url).port);
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('THIS IS NOT HTTP\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    expect(reply).toContain('400');
    expect((await fx().anon.from('tags').select('id')).status).toBe(200);
  });
});
