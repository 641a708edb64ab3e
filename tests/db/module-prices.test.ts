// The module catalogue in the database and the prices the public pages show
// (app/lib/pricing.ts: /pricing and the landing cards) are one price list:
// activating a module charges what the visitor was shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient, startBackend, type TestBackend } from './support/backend.ts';
import { MODULES } from '../../app/lib/catalogue.ts';
import { MODULE_MONTHLY_PRICE_CENTS, SETUP_FEE_CENTS } from '../../app/lib/pricing.ts';

let backend: TestBackend;
beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => backend?.stop());

describe('the module catalogue', () => {
  it('holds the six modules of the public pages at their advertised monthly price and setup fee', async () => {
    const { data, error } = await serviceClient(backend).from('modules').select('key, monthly_price, setup_fee').order('sort_order');
    expect(error).toBeNull();
    expect(data).toEqual(
      MODULES.map((module) => ({ key: module.key, monthly_price: MODULE_MONTHLY_PRICE_CENTS, setup_fee: SETUP_FEE_CENTS })),
    );
  });
});
