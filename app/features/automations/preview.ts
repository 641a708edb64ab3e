// What every screen that still shows sample data says at its top
// (docs/product-guide.md, Demonstration screens); preview-banner.tsx shows it.
export const PREVIEW_TEXT = 'Preview with sample data — nothing you save here is kept';
