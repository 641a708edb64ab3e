// Compliance's pure parts (issue 37): the calendar's month from the URL and
// its grid, the trail CSV, the audit package parsed back with its manifest's
// hashes, the evidence type check by content, and the reminder mail's text.
import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { monthGrid, readMonth } from '../../app/features/compliance/calendar.ts';
import { auditPackage, packagePart, trailCsv, zipName } from '../../app/features/compliance/export.ts';
import { DEFAULT_INLINE_PACKAGE_BYTES, inlinePackageLimit, packageByMail, packageMail, packagePartBytes, PACKAGE_PART_BYTES, planParts } from '../../app/features/compliance/package-plan.ts';
import { MAX_OSCAL_BYTES, OSCAL_MESSAGES, parseOscalCatalogue } from '../../app/features/compliance/oscal.ts';
import excerptJson from '../fixtures/oscal-sp800-53-rev5-excerpt.json';
import type { HistoryEntry } from '../../app/lib/record-history.ts';

/** SHA-256 as hex, by Web Crypto (these tests run where node:crypto is not typed). */
async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}


const entry = (at: string, action: string, newValues: Record<string, unknown> = {}): HistoryEntry => ({
  id: at, action, at, actor: 'Dana Demo', actorKind: 'user', actorEmail: 'demo@opshub.test', oldValues: {}, newValues,
});

describe('the calendar month', () => {
  const today = new Date('2028-02-10T12:00:00Z');
  it('reads ?month=YYYY-MM, else this month; previous and next cross years', () => {
    expect(readMonth(new URL('http://x/compliance?month=2027-12'), today)).toMatchObject({ month: '2027-12', first: '2027-12-01', last: '2027-12-31', previous: '2027-11', next: '2028-01', label: 'December 2027' });
    expect(readMonth(new URL('http://x/compliance'), today)).toMatchObject({ month: '2028-02', last: '2028-02-29' });
    for (const bad of ['2027-13', '1999-01', 'x', '2027-1', '3000-01']) expect(readMonth(new URL(`http://x/?month=${bad}`), today).month).toBe('2028-02');
  });

  it('lays the month out in weeks from Monday', () => {
    const weeks = monthGrid(readMonth(new URL('http://x/?month=2028-02'), today));
    // 1 February 2028 is a Tuesday.
    expect(weeks[0]).toEqual([null, '2028-02-01', '2028-02-02', '2028-02-03', '2028-02-04', '2028-02-05', '2028-02-06']);
    expect(weeks.flat().filter(Boolean)).toHaveLength(29);
    expect(weeks.every((w) => w.length === 7)).toBe(true);
  });
});

describe('the trail and the audit package', () => {
  const trail = [entry('2026-11-02T10:00:00Z', 'compliance_review_recorded', { outcome: 'Compliant', notes: '=HYPERLINK("x")' }), entry('2026-11-01T09:00:00Z', 'compliance_item_created')];

  it('writes the trail oldest first, quoted, never as a formula', () => {
    const lines = trailCsv(trail).trimEnd().split('\r\n');
    expect(lines[0]).toBe('at,action,actor,actor_email,old_values,new_values');
    expect(lines[1]).toMatch(/^2026-11-01T09:00:00Z,compliance_item_created,/);
    expect(lines[2]).toContain('compliance_review_recorded');
    expect(lines[2]).toContain('""notes"":""=HYPERLINK');
  });

  it('zips the item, reviews, trail and evidence with a manifest whose hashes match the files', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.4 evidence');
    const sha = await sha256(pdf);
    const zip = await auditPackage({
      item: { id: 'i1', title: 'AC-2' },
      reviews: [{ id: 'r1', outcome: 'Compliant' }],
      trail,
      evidence: [
        { id: 'e1', title: 'Access list', version: 2, file_name: 'list.pdf', sha256: sha, bytes: pdf },
        { id: 'e2', title: 'Gone', version: 1, file_name: 'gone.pdf', sha256: sha, bytes: null },
      ],
      generatedAt: '2026-11-26T20:00:00Z',
    });
    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual(['evidence/Access list-v2-list.pdf', 'item.json', 'manifest.json', 'reviews.json', 'trail.csv']);
    const manifest = JSON.parse(strFromU8(files['manifest.json']));
    expect(manifest.missing_evidence).toEqual(['Gone v1']);
    for (const f of manifest.files) {
      expect(await sha256(files[f.path]), f.path).toBe(f.sha256);
    }
    expect(manifest.files.find((f: { path: string }) => f.path.startsWith('evidence/')).recorded_sha256).toBe(sha);
    expect(JSON.parse(strFromU8(files['item.json'])).title).toBe('AC-2');
  });

  it('names zip entries without folders or control characters', () => {
    expect(zipName('../../etc/passwd')).toBe('__.._etc_passwd');
    expect(zipName('a\u0000b')).toBe('a_b');
    expect(zipName('')).toBe('file');
  });
});

describe('an OSCAL catalogue', () => {
  const excerpt = JSON.stringify(excerptJson);

  it('reads the title, version, uuid and every control with its family, label and statement', () => {
    const result = parseOscalCatalogue(excerpt);
    if (!result.ok) throw new Error(result.message);
    expect(result.catalogue).toMatchObject({ uuid: '613fca2d-704a-42e7-8e2b-b206fb92b456', version: '5.0.1', oscalVersion: '1.0.0' });
    expect(result.catalogue.controls.map((c) => c.label)).toEqual(['AC-2', 'AU-6', 'CP-9', 'IA-2', 'SI-2']);
    const au6 = result.catalogue.controls[1];
    expect(au6).toMatchObject({ key: 'au-6', family: 'Audit and Accountability', title: 'Audit Record Review, Analysis, and Reporting' });
    expect(au6.statement).toContain('Review and analyze system audit records [organization-defined frequency] for indications');
  });

  it('reads nested groups and control enhancements', () => {
    const enhancement = { id: 'x-1.1', title: 'One enhanced', props: [{ name: 'label', value: 'X-1(1)' }] };
    const inner = { title: 'Inner', controls: [{ id: 'x-1', title: 'One', controls: [enhancement] }] };
    const nested = JSON.stringify({ catalog: { uuid: '00000000-0000-4000-8000-000000000001', metadata: { title: 'Nested' }, groups: [{ title: 'Outer', groups: [inner] }] } });
    const result = parseOscalCatalogue(nested);
    expect(result.ok && result.catalogue.controls.map((c) => `${c.label}/${c.family}`)).toEqual(['X-1/Inner', 'X-1(1)/Inner']);
  });

  it('refuses what is not OSCAL, too large or without controls; keeps HTML as text and drops control characters', () => {
    expect(parseOscalCatalogue('not json')).toEqual({ ok: false, message: OSCAL_MESSAGES.notJson });
    expect(parseOscalCatalogue('{"profile":{}}')).toEqual({ ok: false, message: OSCAL_MESSAGES.notOscal });
    expect(parseOscalCatalogue('{"catalog":{"uuid":"x","metadata":{"title":"T"}}}')).toEqual({ ok: false, message: OSCAL_MESSAGES.notOscal });
    expect(parseOscalCatalogue(JSON.stringify({ catalog: { uuid: '00000000-0000-4000-8000-000000000001', metadata: { title: 'T' } } }))).toEqual({ ok: false, message: OSCAL_MESSAGES.noControls });
    expect(parseOscalCatalogue(' '.repeat(MAX_OSCAL_BYTES + 1))).toEqual({ ok: false, message: OSCAL_MESSAGES.tooLarge });
    const many = { catalog: { uuid: '00000000-0000-4000-8000-000000000001', metadata: { title: 'T' }, controls: Array.from({ length: 5001 }, (_, i) => ({ id: `c-${i}`, title: 'C' })) } };
    expect(parseOscalCatalogue(JSON.stringify(many))).toEqual({ ok: false, message: OSCAL_MESSAGES.tooMany });
    const html = parseOscalCatalogue(JSON.stringify({ catalog: { uuid: '00000000-0000-4000-8000-000000000001', metadata: { title: '<b>T</b>\u0007' }, controls: [{ id: 'c-1', title: '<script>alert(1)</script>\nx' }] } }));
    expect(html.ok && [html.catalogue.title, html.catalogue.controls[0].title]).toEqual(['<b>T</b>', '<script>alert(1)</script> x']);
  });
});

describe('the audit package built by the jobs runner (decision 078)', () => {
  it('builds in the request under the inline limit, configurable; by mail above it or with 500 files', () => {
    expect(inlinePackageLimit({})).toBe(DEFAULT_INLINE_PACKAGE_BYTES);
    expect(inlinePackageLimit({ COMPLIANCE_PACKAGE_INLINE_BYTES: '' })).toBe(DEFAULT_INLINE_PACKAGE_BYTES);
    expect(inlinePackageLimit({ COMPLIANCE_PACKAGE_INLINE_BYTES: 'lots' })).toBe(DEFAULT_INLINE_PACKAGE_BYTES);
    expect(inlinePackageLimit({ COMPLIANCE_PACKAGE_INLINE_BYTES: '10' })).toBe(10);
    expect(packageByMail([{ file_size: 6 }, { file_size: 4 }], 10)).toBe(false);
    expect(packageByMail([{ file_size: 6 }, { file_size: 5 }], 10)).toBe(true);
    expect(packageByMail(Array.from({ length: 500 }, () => ({ file_size: 1 })), 10_000)).toBe(true);
  });

  it('splits the evidence into parts under the limit, a file larger than it alone', () => {
    const sizes = (parts: { file_size: number }[][]) => parts.map((p) => p.map((e) => e.file_size));
    expect(sizes(planParts([{ file_size: 4 }, { file_size: 5 }, { file_size: 2 }, { file_size: 30 }, { file_size: 1 }], 10))).toEqual([[4, 5], [2], [30], [1]]);
    expect(sizes(planParts([], 10))).toEqual([[]]);
    expect(packagePartBytes({})).toBe(PACKAGE_PART_BYTES);
    expect(packagePartBytes({ COMPLIANCE_PACKAGE_PART_BYTES: '0' })).toBe(PACKAGE_PART_BYTES);
    expect(packagePartBytes({ COMPLIANCE_PACKAGE_PART_BYTES: '4000' })).toBe(4000);
  });

  it('numbers the parts in their manifests, the head (item, reviews, trail) in the first only', async () => {
    const bytes = new TextEncoder().encode('evidence');
    const zip = await packagePart({
      evidence: [{ id: 'e', title: 'Policy', version: 2, file_name: 'p.txt', sha256: await sha256(bytes), bytes }],
      generatedAt: '2026-11-26T00:00:00Z', part: { number: 2, of: 3 },
    });
    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual(['evidence/Policy-v2-p.txt', 'manifest.json']);
    const manifest = JSON.parse(strFromU8(files['manifest.json']));
    expect(manifest).toMatchObject({ part: 2, parts: 3 });
    expect(manifest.files[0].sha256).toBe(manifest.files[0].recorded_sha256);
  });

  it('mails the links with their expiry, one per part', () => {
    const one = packageMail({ to: 'a@x.test', title: 'Access review', links: ['https://s/1'], expiresAt: '2026-12-03T10:15:00.000Z' });
    expect(one.subject).toBe('Audit package ready: Access review');
    expect(one.text).toContain('https://s/1');
    expect(one.text).toContain('until 2026-12-03 10:15 UTC');
    expect(packageMail({ to: 'a@x.test', title: 'T', links: ['https://s/1', 'https://s/2'], expiresAt: '2026-12-03T10:15:00Z' }).text).toContain('Part 2: https://s/2');
  });
});
