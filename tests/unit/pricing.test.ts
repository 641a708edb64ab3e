import { describe, expect, it } from 'vitest';
import { MODULES } from '../../app/lib/catalogue.ts';
import { formatWholeDollars } from '../../app/lib/money.ts';
import {
  BUNDLE_MIN_MODULES,
  BUNDLE_MONTHLY_PRICE_CENTS,
  MODULE_MONTHLY_PRICE_CENTS,
  PASSWORD_MIN_LENGTH,
  SETUP_FEE_CENTS,
} from '../../app/lib/pricing.ts';

describe('business constants of docs/product-guide.md', () => {
  it('prices a module at $299 a month with an optional $300 setup fee', () => {
    expect(formatWholeDollars(MODULE_MONTHLY_PRICE_CENTS)).toBe('$299');
    expect(formatWholeDollars(SETUP_FEE_CENTS)).toBe('$300');
  });

  it('bundles 2 or more modules at $399 a month', () => {
    expect(formatWholeDollars(BUNDLE_MONTHLY_PRICE_CENTS)).toBe('$399');
    expect(BUNDLE_MIN_MODULES).toBe(2);
    // Two modules bought singly cost more than the bundle, or the bundle is no offer.
    expect(BUNDLE_MONTHLY_PRICE_CENTS).toBeLessThan(BUNDLE_MIN_MODULES * MODULE_MONTHLY_PRICE_CENTS);
  });

  it('requires passwords of at least 6 characters', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(6);
  });

  it('sells the six catalogue modules, each with three features', () => {
    expect(MODULES.map((m) => m.key)).toEqual(['helpdesk', 'cpq', 'logistics', 'doc2data', 'rfp', 'compliance']);
    for (const module of MODULES) expect(module.features).toHaveLength(3);
  });
});
