// The screens still showing sample data say so at their top, and mark their
// sample rows; the real screens say nothing of the kind (docs/product-guide.md,
// Demonstration screens). A screen made real drops its PreviewBanner and moves from
// the first list to the second.
import { beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_TEXT } from '../../app/features/automations/preview';
import type { Visitor } from './support/app';
import { demoAdmin, page, readable } from './support/module-screens';

const PREVIEW_SCREENS = ['/automations'];
const REAL_SCREENS = ['/dashboard', '/leads', '/quotes', '/clients', '/invoices', '/documents', '/messages', '/compliance', '/analytics', '/shipments', '/rfp'];
/** Preview screens whose rows are listed. */
const WITH_SAMPLE_ROWS = PREVIEW_SCREENS;

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

describe('preview screens', () => {
  it.each(PREVIEW_SCREENS)('%s opens with the preview note, before its heading', async (path) => {
    const html = await page(visitor, path);
    const note = html.indexOf('role="note" aria-label="Preview"');
    expect(note, path).toBeGreaterThan(-1);
    expect(note, path).toBeLessThan(html.indexOf('<h1'));
    expect(readable(html)).toContain(PREVIEW_TEXT);
  });

  it.each(WITH_SAMPLE_ROWS)('%s marks every sample row as a sample', async (path) => {
    const html = await page(visitor, path);
    const rows = html.match(/<li class="[^"]*rounded-lg border[^"]*"/g) ?? [];
    expect(rows.length, path).toBeGreaterThan(0);
    expect((html.match(/>Sample<\/span>/g) ?? []).length, path).toBe(rows.length);
  });

  it.each(REAL_SCREENS)("%s is the account's own: no preview note", async (path) => {
    const html = await page(visitor, path);
    expect(html).not.toContain(PREVIEW_TEXT);
  });
});
