// Control catalogues through the real Worker and backend (issue 37, decision
// 063): the demo account's NIST SP 800-53 excerpt and its coverage; importing
// an OSCAL file (the same catalogue twice refused, a file that is not OSCAL
// refused, HTML in titles shown as text); chosen controls made into
// requirements; an auditor reads and is refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_AUDITOR } from '../support/accounts';
import excerpt from '../fixtures/oscal-sp800-53-rev5-excerpt.json';
import { signIn, type Visitor } from './support/app';
import { serviceClient } from './support/backend';
import { page, readable } from './support/module-screens';

const PATH = '/compliance/catalogues';
let admin: Visitor;
let auditor: Visitor;
beforeAll(async () => {
  [admin, auditor] = await Promise.all([signIn(DEMO_ADMIN), signIn(DEMO_AUDITOR)]);
});

const upload = (json: unknown, name = 'catalogue.json') => {
  const form = new FormData();
  form.set('intent', 'import');
  form.set('file', new File([typeof json === 'string' ? json : JSON.stringify(json)], name, { type: 'application/json' }));
  return form;
};

describe('/compliance/catalogues', () => {
  it("shows the demo account's NIST SP 800-53 excerpt with its coverage", async () => {
    const text = readable(await page(admin, PATH));
    expect(text).toContain('NIST Special Publication 800-53 Revision 5');
    // 5 controls, 3 covered by the seeded obligations.
    expect(text).toMatch(/\(excerpt\) \(5\.0\.1\) 5 3 \(60%\)/);
  });

  it('refuses the same catalogue twice, and a file that is not OSCAL', async () => {
    const again = await admin.post(PATH, upload(excerpt));
    expect(again.status).toBe(409);
    expect(readable(await again.text())).toContain('This catalogue is already imported');
    const profile = await admin.post(PATH, upload({ profile: { uuid: crypto.randomUUID() } }));
    expect(profile.status).toBe(400);
    expect(readable(await profile.text())).toContain('This file is not an OSCAL catalogue');
    const notJson = await admin.post(PATH, upload('<html></html>'));
    expect(notJson.status).toBe(400);
  });

  it('imports an OSCAL catalogue, shows HTML in its titles as text, and makes chosen controls requirements', async () => {
    const copy = structuredClone(excerpt) as typeof excerpt;
    copy.catalog.uuid = crypto.randomUUID();
    copy.catalog.metadata.title = `Imported <script>alert(1)</script> ${Date.now()}`;
    const imported = await admin.post(PATH, upload(copy));
    expect(imported.status).toBe(302);
    const location = imported.headers.get('Location')!;
    const html = await page(admin, location);
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('Imported &lt;script&gt;alert(1)&lt;/script&gt;');
    const { data: controls } = await serviceClient().from('compliance_controls').select('id, label')
      .eq('catalogue_id', new URL(location, 'http://x').searchParams.get('catalogue')!).order('position');
    expect(controls!.map((c) => c.label)).toEqual(['AC-2', 'AU-6', 'CP-9', 'IA-2', 'SI-2']);
    const form = new URLSearchParams({ intent: 'create', responsible_team: 'Platform', first_review_date: new Date().toISOString().slice(0, 10), frequency: 'annual' });
    form.append('control_ids', controls![3].id);
    form.append('control_ids', controls![4].id);
    const made = await admin.post(PATH, formData(form));
    expect(made.status).toBe(302);
    const list = readable(await page(admin, '/compliance?q=Flaw%20Remediation'));
    expect(list).toContain('SI-2 Flaw Remediation');
  });

  it('lets an auditor read the coverage and refuses its import', async () => {
    expect(readable(await page(auditor, PATH))).toContain('Coverage');
    const copy = structuredClone(excerpt) as typeof excerpt;
    copy.catalog.uuid = crypto.randomUUID();
    expect((await auditor.post(PATH, upload(copy))).status).toBe(403);
  });
});

function formData(params: URLSearchParams): FormData {
  const form = new FormData();
  for (const [k, v] of params) form.append(k, v);
  return form;
}
