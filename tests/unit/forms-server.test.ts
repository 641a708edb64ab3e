// readFormData's refusal of text that is not UTF-8, and isAlteredForm: the
// two answers the hostile-input Worker tests rely on, pinned down here case by case.
import { describe, expect, it } from 'vitest';
import { isAlteredForm, NOT_UTF8_MESSAGE, readFormData } from '../../app/lib/forms.server.ts';

function post(body: BodyInit, contentType: string): Request {
  return new Request('http://ops-hub.test/quotes', { method: 'POST', body, headers: { 'Content-Type': contentType } });
}

const URLENCODED = 'application/x-www-form-urlencoded';

async function refusal(request: Request): Promise<unknown> {
  try {
    await readFormData(request);
  } catch (thrown) {
    return thrown;
  }
  return null;
}

function multipart(value: Uint8Array): Request {
  const encoder = new TextEncoder();
  const head = encoder.encode('--b\r\nContent-Disposition: form-data; name="name"\r\n\r\n');
  const tail = encoder.encode('\r\n--b--\r\n');
  const body = new Uint8Array(head.length + value.length + tail.length);
  body.set(head);
  body.set(value, head.length);
  body.set(tail, head.length + value.length);
  return post(body, 'multipart/form-data; boundary=b');
}

describe('readFormData', () => {
  it('reads UTF-8 text, percent-encoded or raw, including a replacement character the client sent', async () => {
    const form = await readFormData(post('name=Zo%C3%AB+%F0%9F%9A%80&note=%EF%BF%BD', URLENCODED));
    expect(form.get('name')).toBe('Zoë 🚀');
    expect(form.get('note')).toBe('\uFFFD');
    const raw = await readFormData(multipart(new TextEncoder().encode('Zoë \uFFFD')));
    expect(raw.get('name')).toBe('Zoë \uFFFD');
  });

  it('reads a long percent-encoded value (a drawn signature in base64) when the limit allows it', async () => {
    const value = `data:image/png;base64,iVBORw0KGgo${'A'.repeat(300_000)}`;
    const form = await readFormData(post(new URLSearchParams({ signature: value }).toString(), URLENCODED), 400 * 1024);
    expect(form.get('signature')).toBe(value);
  });

  it('refuses percent-encoded bytes that are not UTF-8 with a 400 that says so', async () => {
    for (const bad of ['name=%FF', 'name=%C3%28', 'name=%C0%AF', 'name=ok&%80=x', 'name=%E2%82']) {
      const thrown = await refusal(post(bad, URLENCODED));
      expect(thrown, bad).toMatchObject({ data: { error: NOT_UTF8_MESSAGE }, init: { status: 400 } });
    }
  });

  it('refuses raw bytes that are not UTF-8 in a multipart part', async () => {
    const thrown = await refusal(multipart(new Uint8Array([0x48, 0xff, 0x69])));
    expect(thrown).toMatchObject({ data: { error: NOT_UTF8_MESSAGE }, init: { status: 400 } });
  });

  it('reads a wrong content type or an oversized body as an empty form', async () => {
    expect([...(await readFormData(post('{"name":"x"}', 'application/json'))).keys()]).toEqual([]);
    expect([...(await readFormData(post(`name=${'x'.repeat(70_000)}`, URLENCODED))).keys()]).toEqual([]);
  });
});

describe('isAlteredForm', () => {
  it('is a form failing on a hidden field (intent, id, active) or on a field it did not send', () => {
    expect(isAlteredForm({ status: 'error', payload: { intent: 'x' }, error: { intent: ['Invalid'] } })).toBe(true);
    expect(isAlteredForm({ status: 'error', payload: { intent: 'delete', id: 'x' }, error: { id: ['Invalid id'] } })).toBe(true);
    expect(isAlteredForm({ status: 'error', payload: { intent: 'save' }, error: { name: ['Name is required'] } })).toBe(true);
    expect(isAlteredForm({ status: 'error', payload: { interest: ['x'] }, error: { 'interest[0]': ['Choose an interest'] } })).toBe(false);
  });

  it('is not a form failing only on fields a person filled in, nor a valid one', () => {
    expect(isAlteredForm({ status: 'error', payload: { intent: 'save', name: '' }, error: { name: ['Name is required'] } })).toBe(false);
    expect(isAlteredForm({ status: 'success', payload: {}, error: {} })).toBe(false);
    expect(isAlteredForm({ status: 'error', payload: { redirectTo: 'x' }, error: { redirectTo: ['Too long'] } }, ['redirectTo'])).toBe(true);
  });
});
