// A large compliance item's audit package through the real jobs runner, and an
// unreviewed item's evidence files leaving Storage with it (issue 37, decision
// 078). The Worker tests run with COMPLIANCE_PACKAGE_INLINE_BYTES = 4096
// (vitest.worker.config.ts): an item with more evidence than that is large.
// The mail goes to a fresh account's admin (the backend's outbox); the demo
// auditor's request is only seen queued (a read: auditors may ask).
import { exports } from 'cloudflare:workers';
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_AUDITOR } from '../support/accounts';
import { signIn, signUpFreshAdmin, type Visitor } from './support/app';
import { accountOf, outbox, serviceClient } from './support/backend';
import { page, readable } from './support/module-screens';

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const today = () => new Date().toISOString().slice(0, 10);

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Ticks the runner until the item's jobs of this kind are all done (another file's runner may take them). */
async function jobsDone(subjectId: string, kind: string, deadlineMs = 90_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    await worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
    const { data } = await serviceClient().from('jobs').select('status, last_error').eq('subject_id', subjectId).eq('kind', kind);
    const rows = (data ?? []) as { status: string; last_error: string | null }[];
    const failed = rows.find((row) => row.status === 'failed');
    if (failed) throw new Error(`${kind} failed: ${failed.last_error}`);
    if (rows.length > 0 && rows.every((row) => row.status === 'done')) return;
    await sleep(250);
  }
  throw new Error(`${kind} not done within ${deadlineMs / 1000} s`);
}

const evidenceForm = (name: string, text: string, title: string) => {
  const form = new FormData();
  form.set('intent', 'evidence');
  form.set('title', title);
  form.set('effective_on', today());
  form.set('file', new File([text], name, { type: 'text/plain' }));
  return form;
};

let admin: Visitor;
let email: string;
let accountId: string;
const title = `Data retention ${Date.now()}`;

async function newItem(name: string, account = accountId): Promise<string> {
  const { data, error } = await serviceClient().from('compliance_items').insert({
    account_id: account, title: name, responsible_team: 'Legal', description: 'Yearly retention check', first_review_date: today(), frequency: 'annual',
  }).select('id').single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

beforeAll(async () => {
  const fresh = await signUpFreshAdmin();
  admin = fresh.visitor;
  email = fresh.email;
  accountId = (await accountOf(email)).accountId;
});

describe("a large item's audit package", () => {
  it('is offered by mail on the page, refused as one download, built by the runner part by part and mailed as signed links to zips whose manifests match', { timeout: 180_000 }, async () => {
    const itemId = await newItem(title);
    const itemPath = `/compliance/${itemId}`;
    // Two files of 3,000 bytes: over the 4,096 bytes the tests build in a request.
    expect((await admin.post(itemPath, evidenceForm('policy.txt', 'P'.repeat(3000), 'Retention policy'))).status).toBe(302);
    expect((await admin.post(itemPath, evidenceForm('log.txt', 'L'.repeat(3000), 'Deletion log'))).status).toBe(302);

    const text = readable(await page(admin, itemPath));
    expect(text).toContain('its audit package will be built and emailed to you');
    expect(text).toContain('Email me the audit package');
    const direct = await admin.get(`${itemPath}/package.zip`);
    expect(direct.status).toBe(413);
    expect(await direct.text()).toContain('it will be emailed to you');

    const asked = await admin.post(itemPath, { intent: 'package' });
    expect(asked.status).toBe(302);
    expect(asked.headers.get('Location')).toBe(itemPath);
    await jobsDone(itemId, 'compliance.audit_package');

    const packageMails = async () => (await outbox()).filter((m) => m.to === email && m.subject === `Audit package ready: ${title}`);
    // The last part queues the mail (mail.send, keyed by the package): the runner sends it.
    for (let tick = 0; tick < 40 && (await packageMails()).length === 0; tick++) {
      await worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
      await sleep(250);
    }
    const mail = await packageMails();
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toMatch(/work until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    // Two parts (4,000 bytes of evidence each at most in the Worker tests), each built by a job of its own.
    const links = [...mail[0].text.matchAll(/Part (\d): (https?:\/\/\S+)/g)].map((m) => m[2]);
    expect(links).toHaveLength(2);
    const files: Record<string, Uint8Array> = {};
    const manifests: { part: number; parts: number; files: { path: string; sha256: string; recorded_sha256: string | null }[] }[] = [];
    for (const link of links) {
      expect(link).toContain(`/compliance-packages/${accountId}/${itemId}/`);
      const download = await fetch(link);
      expect(download.status).toBe(200);
      const zip = unzipSync(new Uint8Array(await download.arrayBuffer()));
      manifests.push(JSON.parse(strFromU8(zip['manifest.json'])));
      for (const [name, bytes] of Object.entries(zip)) if (name !== 'manifest.json') files[name] = bytes;
    }
    expect(manifests.map((m) => `${m.part}/${m.parts}`)).toEqual(['1/2', '2/2']);
    expect(Object.keys(files).sort()).toEqual([
      'evidence/Deletion log-v1-log.txt', 'evidence/Retention policy-v1-policy.txt', 'item.json', 'reviews.json', 'trail.csv',
    ]);
    expect(JSON.parse(strFromU8(files['item.json'])).title).toBe(title);
    expect(strFromU8(files['trail.csv'])).toContain('compliance_audit_package_requested');
    for (const file of manifests.flatMap((m) => m.files)) {
      expect(await sha256(files[file.path]), file.path).toBe(file.sha256);
      if (file.path.startsWith('evidence/')) expect(file.recorded_sha256, file.path).toBe(file.sha256);
    }
    const { data: jobs } = await serviceClient().from('jobs').select('id, payload').eq('subject_id', itemId).eq('kind', 'compliance.audit_package');
    expect(jobs).toHaveLength(2);
    // The last part run again (its completion lost, say): it queues the same mail key, and nothing more is sent.
    const last = (jobs as { id: string; payload: { part: number } }[]).find((job) => job.payload.part === 2)!;
    await serviceClient().from('jobs').update({ status: 'queued', run_at: new Date(Date.now() - 1000).toISOString() }).eq('id', last.id);
    await jobsDone(itemId, 'compliance.audit_package');
    for (let tick = 0; tick < 3; tick++) await worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
    expect(await packageMails()).toHaveLength(1);
    // The bucket is read only through the signed links: signed in, the package is still refused as one download.
    expect((await admin.get(`${itemPath}/package.zip`)).status).toBe(413);
  });

  it('may be asked for by an auditor (a read), by a plain form post', async () => {
    const { accountId: demoAccount } = await accountOf(DEMO_ADMIN.email);
    const itemId = await newItem(`Auditor package ${Date.now()}`, demoAccount);
    const auditor = await signIn(DEMO_AUDITOR);
    const asked = await auditor.post(`/compliance/${itemId}`, { intent: 'package' });
    expect(asked.status).toBe(302);
    const { data } = await serviceClient().from('jobs').select('payload').eq('subject_id', itemId).eq('kind', 'compliance.audit_package');
    expect((data ?? []).map((j) => (j.payload as { to: string }).to)).toEqual([DEMO_AUDITOR.email]);
    // Still no other write: the auditor's evidence is refused.
    expect((await auditor.post(`/compliance/${itemId}`, evidenceForm('a.txt', 'a', 'Auditor'))).status).toBe(403);
  });
});

describe("an unreviewed item's delete", () => {
  it('removes its evidence files from Storage too', { timeout: 120_000 }, async () => {
    const itemId = await newItem(`Temporary ${Date.now()}`);
    expect((await admin.post(`/compliance/${itemId}`, evidenceForm('draft.txt', 'draft', 'Draft'))).status).toBe(302);
    const { data: rows } = await serviceClient().from('evidence').select('file_path').eq('item_id', itemId);
    const path = rows![0].file_path as string;
    expect((await serviceClient().storage.from('evidence').download(path)).error).toBeNull();
    expect((await admin.post(`/compliance/${itemId}?delete`, { intent: 'delete' })).status).toBe(302);
    await jobsDone(itemId, 'compliance.remove_evidence_file');
    expect((await serviceClient().storage.from('evidence').download(path)).error).not.toBeNull();
  });
});

describe('the list', () => {
  it('says in words which items have current evidence that expired', async () => {
    const expiredTitle = `Expired evidence ${Date.now()}`;
    const itemId = await newItem(expiredTitle);
    // The row alone (its file is not read here): expired yesterday.
    const { error } = await serviceClient().from('evidence').insert({
      account_id: accountId, item_id: itemId, title: 'Certificate', file_path: `${accountId}/compliance/${crypto.randomUUID()}/cert.pdf`, file_name: 'cert.pdf',
      file_size: 10, mime_type: 'application/pdf', sha256: 'a'.repeat(64), effective_on: '2025-01-01',
      expires_on: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
    });
    expect(error).toBeNull();
    const text = readable(await page(admin, '/compliance'));
    const row = text.slice(text.indexOf(expiredTitle), text.indexOf(expiredTitle) + 300);
    expect(row).toContain('Evidence expired');
    expect(readable(await page(admin, `/compliance/${itemId}`))).toContain('Evidence expired: add a new version');
  });
});
