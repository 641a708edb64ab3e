// Business constants (docs/product-guide.md, Public pages). Every price the product shows comes from here;
// the module catalogue's rows (public.modules) hold the same, which tests/db/module-prices.test.ts checks.
export const MODULE_MONTHLY_PRICE_CENTS = 29_900;
export const SETUP_FEE_CENTS = 30_000;
/** Any 2 or more modules, also all 6. */
export const BUNDLE_MONTHLY_PRICE_CENTS = 39_900;
export const BUNDLE_MIN_MODULES = 2;
export const FREE_TRIAL_DAYS = 14;
export const PASSWORD_MIN_LENGTH = 6;
export const COPYRIGHT_YEAR = 2025;
