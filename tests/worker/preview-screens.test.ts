// Every screen is the account's own now (issue 39 and 38 made automations and
// rfp real, the last previews): none shows the preview note or a sample row.
// The preview kit (PreviewBanner, the simulated saves) is gone with them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Visitor } from './support/app';
import { demoAdmin, page } from './support/module-screens';

const REAL_SCREENS = ['/dashboard', '/leads', '/quotes', '/clients', '/invoices', '/documents', '/messages', '/compliance', '/analytics', '/shipments', '/purchase-orders', '/automations', '/rfp'];

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

describe('no preview screens are left', () => {
  it.each(REAL_SCREENS)("%s is the account's own: no preview note, no sample rows", async (path) => {
    const html = await page(visitor, path);
    expect(html).not.toContain('aria-label="Preview"');
    expect(html).not.toMatch(/>Sample<\/span>/);
  });
});
