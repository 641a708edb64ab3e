// postal-mime inside workerd (decision 071): the helpdesk's parser reads the
// real-shaped samples here as under node (multipart/alternative, encoded
// words, HTML only in windows-1252, an attachment), and the built Worker's
// `email` handler stores a good message while one over a cap is rejected
// alone, once, with the cap named, and nothing of it stored; the attachment
// lands in Storage and downloads as a sandboxed file, to staff only.
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MAX_PARTS, parseMail } from '../../app/features/helpdesk/inbound/parse-mail';
import { ALTERNATIVE, ATTACHMENT_BYTES, HTML_ONLY, manyParts, WITH_ATTACHMENT } from '../support/mail-samples';
import { serviceClient } from './support/backend';
import { ORIGIN, signIn } from './support/app';
import { demoAdmin, page } from './support/module-screens';
import { DEMO_AUDITOR, DEMO_CLIENT } from '../support/accounts';

type Handler = { email(message: unknown, env: unknown, ctx: unknown): Promise<void> };
async function worker(): Promise<Handler> {
  const path = (env as unknown as { WORKER_MAIN_FOR_TESTS: string }).WORKER_MAIN_FOR_TESTS;
  return ((await import(/* @vite-ignore */ path)) as { default: Handler }).default;
}

function emailMessage(raw: string) {
  const bytes = new TextEncoder().encode(raw);
  const rejected: string[] = [];
  return {
    rejected,
    message: {
      from: 'sender@envelope.test',
      to: 'demo-inbox@inbound.opshub.test',
      headers: new Headers(),
      raw: new Response(bytes).body,
      rawSize: bytes.length,
      setReject: (reason: string) => void rejected.push(reason),
      forward: async () => {},
      reply: async () => {},
    },
  };
}

describe('postal-mime in workerd', () => {
  it('reads multipart/alternative with encoded words', async () => {
    const mail = await parseMail(new TextEncoder().encode(ALTERNATIVE));
    expect(mail).toMatchObject({ fromName: 'Ana López', subject: 'Re: café order €20', text: 'Hello, the café order is late. Fee €20?' });
  });

  it('reads HTML only as text, and an attachment with its bytes', async () => {
    const html = await parseMail(HTML_ONLY);
    expect(html.text).toBe('Die Lieferung für München & Berlin – wann?');
    const attached = await parseMail(WITH_ATTACHMENT);
    expect(attached.attachments?.map((a) => [a.filename, a.mimeType, new TextDecoder().decode(a.content)])).toEqual([
      ['Zollerklärung.pdf', 'application/pdf', ATTACHMENT_BYTES],
    ]);
  });
});

describe("the Worker's email handler with postal-mime", () => {
  it('stores a message with an attachment, and rejects one over the parts cap alone, once, naming the cap', async () => {
    const handler = await worker();
    const good = emailMessage(WITH_ATTACHMENT);
    await handler.email(good.message, env, {});
    expect(good.rejected).toEqual([]);
    const { data } = await serviceClient()
      .from('messages')
      .select('body, sender_email')
      .eq('external_id', '<6E0C1F3A-1B2C-4D5E-8F90-ABCDEF012345@harbor.test>');
    expect(data).toEqual([{ body: 'The papers are attached.', sender_email: 'oscar@harbor.test' }]);

    // The attachment is in Storage, listed on the message, and downloads as bytes to save, never a page.
    const { data: row } = await serviceClient()
      .from('message_attachments')
      .select('id, conversation_id, account_id, file_name, mime_type, size_bytes, storage_path')
      .eq('file_name', 'Zollerklärung.pdf')
      .single();
    const attachment = row as { id: string; conversation_id: string; account_id: string; mime_type: string; size_bytes: number; storage_path: string };
    expect(attachment.storage_path.startsWith(`${attachment.account_id}/${attachment.conversation_id}/`)).toBe(true);
    expect(attachment.mime_type).toBe('application/pdf');
    expect(attachment.size_bytes).toBe(new TextEncoder().encode(ATTACHMENT_BYTES).length);
    const admin = await demoAdmin();
    const html = await page(admin, `/messages/${attachment.conversation_id}`);
    const href = `/messages/${attachment.conversation_id}/attachments/${attachment.id}`;
    expect(html).toContain(`href="${href}"`);
    const download = await admin.get(href);
    expect(download.status).toBe(200);
    expect(download.headers.get('Content-Type')).toBe('application/octet-stream');
    expect(download.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(download.headers.get('Content-Disposition')).toBe(`attachment; filename="Zollerkl_rung.pdf"; filename*=UTF-8''Zollerkl%C3%A4rung.pdf`);
    expect(download.headers.get('Content-Security-Policy')).toBe("default-src 'none'; sandbox");
    expect(new TextDecoder().decode(await download.arrayBuffer())).toBe(ATTACHMENT_BYTES);
    // An auditor reads it; a client of the account and a signed-out visitor get nothing of it.
    expect((await (await signIn(DEMO_AUDITOR)).get(href)).status).toBe(200);
    const client = await (await signIn(DEMO_CLIENT)).get(href);
    expect(client.status).toBe(404);
    const anonymous = await exports.default.fetch(new Request(`${ORIGIN}${href}`, { redirect: 'manual' }));
    expect(anonymous.status).toBe(302);

    const bad = emailMessage(manyParts(MAX_PARTS + 5).replace('Subject: parts', 'Subject: parts\r\nMessage-ID: <too-many@parts.test>'));
    await handler.email(bad.message, env, {});
    expect(bad.rejected).toEqual([`Malformed message: The mail has more than ${MAX_PARTS} MIME parts`]);
    const { count } = await serviceClient().from('messages').select('id', { count: 'exact', head: true }).eq('sender_email', 'many@parts.test');
    expect(count).toBe(0);
  });

  it("flags a mail whose From claims the account's own domain without passing the receiving side's check, and only that one", async () => {
    const handler = await worker();
    const own = (id: string, results: string | null) =>
      [
        ...(results ? [`Authentication-Results: mx.cloudflare.test; ${results}`] : []),
        'From: The CEO <ceo@opshub.test>',
        'To: demo-inbox@inbound.opshub.test',
        `Subject: Urgent wire ${id}`,
        `Message-ID: <${id}@opshub.test>`,
        '',
        'Please pay today.',
        '',
      ].join('\r\n');
    for (const [id, results] of [['spoof-1', 'spf=fail; dkim=none; dmarc=fail'], ['genuine-1', 'dkim=pass header.d=opshub.test; dmarc=pass']] as const) {
      const delivery = emailMessage(own(id, results));
      await handler.email(delivery.message, env, {});
      expect(delivery.rejected).toEqual([]);
    }
    const flagged = async (id: string) =>
      ((await serviceClient().from('messages').select('sender_unverified, conversation_id').eq('external_id', `<${id}@opshub.test>`).single()).data as {
        sender_unverified: boolean;
        conversation_id: string;
      });
    const spoof = await flagged('spoof-1');
    expect(spoof.sender_unverified).toBe(true);
    expect((await flagged('genuine-1')).sender_unverified).toBe(false);
    // Another domain failing the check is not the account's own: not flagged.
    const stranger = emailMessage(own('stranger-1', 'dmarc=fail').replace('ceo@opshub.test', 'ceo@stranger.test').replace('@opshub.test>', '@stranger.test>'));
    await handler.email(stranger.message, env, {});
    const { data } = await serviceClient().from('messages').select('sender_unverified').eq('external_id', '<stranger-1@stranger.test>').single();
    expect(data).toEqual({ sender_unverified: false });
    const html = await page(await demoAdmin(), `/messages/${spoof.conversation_id}`);
    expect(html).toContain('Unverified sender: claims your own domain but failed the mail check');
  });
});
