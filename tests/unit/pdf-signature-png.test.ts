// A drawn signature is decoded only within bounds (issue 30, item 9): the
// header's size, bit depth and kind are checked, the pixel data is inflated
// with a cap of what the header allows, and what comes out is a fresh PNG.
import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { boundedSignaturePng, signatureHeader, SIGNATURE_LIMITS } from '../../app/features/quotes/pdf/signature-png.ts';
import { normalSignaturePng, zeroRowsPng } from '../support/png-bomb.ts';


let BOMB: Uint8Array | undefined;
describe('boundedSignaturePng', () => {
  it('re-encodes a signature as the page draws it, keeping its pixels', async () => {
    const png = normalSignaturePng();
    const bounded = boundedSignaturePng(png);
    expect(bounded).not.toBeNull();
    expect(signatureHeader(bounded!)).toEqual({ width: 480, height: 140, colorType: 6 });
    // pdf-lib reads it as the same image.
    const image = await (await PDFDocument.create()).embedPng(bounded!);
    expect([image.width, image.height]).toEqual([480, 140]);
    // Made again from its own output, the same bytes: nothing of the original's chunks survives but the pixels.
    expect(boundedSignaturePng(bounded!)).toEqual(bounded);
  });

  it('refuses a 190 KB bomb declaring 8000 x 6000 pixels (192 MB inflated) without inflating it', () => {
    // Made once, outside any test's time: deflating 192 MB of zero rows takes seconds.
    const bomb = (BOMB ??= zeroRowsPng({ width: 8000, height: 6000 }));
    expect(bomb.length).toBeGreaterThan(150_000);
    // Refused by its header alone: nothing is inflated.
    expect(signatureHeader(bomb)).toBeNull();
    expect(boundedSignaturePng(bomb)).toBeNull();
  }, 60_000);

  it('refuses a small file declaring too many pixels for a signature pad', () => {
    const wide = zeroRowsPng({ width: SIGNATURE_LIMITS.maxWidth + 1, height: 10 });
    expect(wide.length).toBeLessThan(SIGNATURE_LIMITS.maxBytes);
    expect(boundedSignaturePng(wide)).toBeNull();
    expect(boundedSignaturePng(zeroRowsPng({ width: 100, height: SIGNATURE_LIMITS.maxHeight + 1 }))).toBeNull();
  });

  it('cuts off a bomb whose header lies (480 x 140 declared, 51 MB of pixel data) at the first byte too many', () => {
    const liar = zeroRowsPng({ width: 480, height: 140 }, { width: 8000, height: 1600 });
    expect(liar.length).toBeLessThan(SIGNATURE_LIMITS.maxBytes);
    // Inflating stops at the first byte past what the header allows (a few hundred KB, not 51 MB).
    expect(boundedSignaturePng(liar)).toBeNull();
  });

  it('refuses what is not an 8-bit, non-interlaced PNG of an allowed kind, and pixel data too short', () => {
    const png = normalSignaturePng();
    const withByte = (at: number, value: number) => {
      const copy = png.slice();
      copy[at] = value;
      return copy;
    };
    expect(boundedSignaturePng(withByte(0, 0x88))).toBeNull(); // not the PNG signature
    expect(boundedSignaturePng(withByte(24, 16))).toBeNull(); // 16-bit
    expect(boundedSignaturePng(withByte(25, 3))).toBeNull(); // palette
    expect(boundedSignaturePng(withByte(28, 1))).toBeNull(); // interlaced
    expect(boundedSignaturePng(zeroRowsPng({ width: 480, height: 140 }, { width: 480, height: 139 }))).toBeNull();
    expect(boundedSignaturePng(png.subarray(0, 40))).toBeNull();
    expect(boundedSignaturePng(new Uint8Array(SIGNATURE_LIMITS.maxBytes + 1))).toBeNull();
  });
});
