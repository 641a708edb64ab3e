// A document's file beside its fields (issue 32): documents/:id/view serves a
// PDF or an image inline from the app's own origin, as data in a sandbox that
// only our own pages may frame, to whoever may read the document; the page
// frames it. Everything else the app answers is still never framed.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_AUDITOR, DEMO_NORTHWIND_ADMIN } from '../support/accounts';
import { pageText, signIn, Visitor } from './support/app';
import { pdfNamed, pngNamed, textInvoice, upload } from './support/documents';

let admin: Visitor;
beforeAll(async () => {
  admin = await signIn(DEMO_ADMIN);
});

const SANDBOX = "default-src 'none'; frame-ancestors 'self'; sandbox";

describe("a document's file to look at", () => {
  it('serves a PDF inline from our origin, sandboxed, never sniffed, framed only by our pages; the page frames it', async () => {
    const file = pdfNamed('view.pdf');
    const id = await upload(admin, { file, title: `Viewed PDF ${Date.now()}` });
    const response = await admin.get(`/documents/${id}/view`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Content-Disposition')).toBe('inline');
    expect(response.headers.get('Content-Security-Policy')).toBe(SANDBOX);
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(response.headers.get('X-Frame-Options')).toBe('SAMEORIGIN');
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array(await file.arrayBuffer()));

    const page = await admin.get(`/documents/${id}`);
    const html = await pageText(page);
    expect(html).toContain(`<iframe src="/documents/${id}/view"`);
    // The page itself is never framed.
    expect(page.headers.get('X-Frame-Options')).toBe('DENY');
    expect(page.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
  });

  it('serves an image as itself, to those who may read the document, and nothing that is not a PDF or an image', async () => {
    const file = pngNamed('view.png');
    const id = await upload(admin, { file, title: `Viewed image ${Date.now()}` });
    const response = await admin.get(`/documents/${id}/view`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('image/png');
    expect(response.headers.get('Content-Security-Policy')).toBe(SANDBOX);
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(await pageText(await admin.get(`/documents/${id}`))).toContain(`<img src="/documents/${id}/view"`);
    // An auditor reads the document, so its file too; another account and no session do not.
    expect((await (await signIn(DEMO_AUDITOR)).get(`/documents/${id}/view`)).status).toBe(200);
    expect((await (await signIn(DEMO_NORTHWIND_ADMIN)).get(`/documents/${id}/view`)).status).toBe(404);
    const stranger = await new Visitor().get(`/documents/${id}/view`);
    expect(stranger.status).toBe(302);
    expect(stranger.headers.get('Location')).toBe(`/auth?redirectTo=${encodeURIComponent(`/documents/${id}/view`)}`);
    // A text file is not shown in a frame (its page has the text itself): 404, and the page has no frame.
    const text = await upload(admin, { file: textInvoice(), title: `Not viewable ${Date.now()}` });
    const refused = await admin.get(`/documents/${text}/view`);
    expect(refused.status).toBe(404);
    expect(refused.headers.get('X-Frame-Options')).toBe('DENY');
    expect(await pageText(await admin.get(`/documents/${text}`))).not.toContain('/view"');
  });
});
