// Which failures of a post the root's client middleware keeps the page for
// (lib/offline.ts, decision 044): only fetch's no-response TypeError, in each
// browser's words; an answer from the server, even a 500 or a TypeError thrown
// on the server, is passed on to the error boundary untouched. The browser
// cases are tests/e2e/offline.test.ts.
import { data, type DataStrategyResult } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNetworkFailure, OFFLINE, offlineMiddleware } from '../../app/lib/offline.ts';

const ACTION = 'features/leads/leads';

async function post(result: DataStrategyResult, method = 'POST') {
  const request = new Request('http://app.test/leads?new', { method });
  const next = async () => ({ [ACTION]: result });
  const args = { request, params: {}, context: undefined, unstable_initiator: 'fetcher' } as unknown as Parameters<typeof offlineMiddleware>[0];
  return (await offlineMiddleware(args, next)) as Record<string, DataStrategyResult>;
}

describe('a post that got no answer', () => {
  beforeAll(() => {
    (globalThis as { window?: unknown }).window = { location: { pathname: '/leads', search: '?new', hash: '' } };
  });
  afterAll(() => {
    delete (globalThis as { window?: unknown }).window;
  });

  it("is action data OFFLINE with a 503 when fetch got no response (Chromium's, Firefox's and Safari's words)", async () => {
    for (const message of ['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed']) {
      // React Router hands an action's error over wrapped in data(error).
      const results = await post({ type: 'error', result: data(new TypeError(message)) });
      expect(results[ACTION].type).toBe('data');
      expect(results[ACTION].result).toMatchObject({ data: OFFLINE, init: { status: 503 } });
    }
  });

  it("passes on every answer of the server: a 500, a TypeError thrown there, data", async () => {
    const answers: DataStrategyResult[] = [
      { type: 'error', result: data(new Error('Unexpected Server Error')) },
      { type: 'error', result: data(new TypeError("Cannot read properties of undefined (reading 'id')")) },
      { type: 'data', result: data({ result: { status: 'error' } }, 400) },
    ];
    for (const answer of answers) expect((await post(answer))[ACTION]).toBe(answer);
  });

  it('leaves reads (GET) to the error boundary', async () => {
    const failed: DataStrategyResult = { type: 'error', result: new TypeError('Failed to fetch') };
    expect((await post(failed, 'GET'))[ACTION]).toBe(failed);
    expect(isNetworkFailure(new TypeError('Failed to fetch'))).toBe(true);
    expect(isNetworkFailure(new DOMException('The operation was aborted.', 'AbortError'))).toBe(false);
  });
});
