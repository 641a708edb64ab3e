// The public face of the product: used on the landing page and in the shell,
// and as the fallback whenever the master account cannot be read (docs/product-guide.md).
export const BRAND_NAME = 'OpsHub Pro';
export const TAGLINE = 'Operations & Automation Hub — Pro Edition';

export interface SiteInfo {
  name: string;
  contactEmail: string;
  description: string;
}

export const DEFAULT_SITE: SiteInfo = {
  name: BRAND_NAME,
  contactEmail: 'hello@opshub.test',
  description: TAGLINE,
};
