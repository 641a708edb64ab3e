// The public quote page's two forms. The drawn signature is a PNG data URL
// (from the page's canvas, with JavaScript); at most 100 KB of image, checked
// again and re-encoded within bounds before it is stored (signature-png.ts).
import { SIGNATURE_LIMITS } from '~/features/quotes/pdf/signature-png';
import { z } from '~/lib/schemas/zod';

export const MAX_SIGNATURE_BYTES = SIGNATURE_LIMITS.maxBytes;
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PREFIX = 'data:image/png;base64,';
const DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;
export const SIGNATURE_MESSAGE = 'The drawn signature could not be read; clear it and draw again (or leave it empty)';
export const SIGNATURE_TOO_LARGE = 'The drawn signature is too large; clear it and draw again';

/** The PNG's bytes in base64 (no data URL prefix), or a reason it is not one. */
export function signaturePngBase64(dataUrl: string): { base64: string } | { error: string } {
  if (dataUrl.length > PREFIX.length + Math.ceil((MAX_SIGNATURE_BYTES * 4) / 3) + 4) return { error: SIGNATURE_TOO_LARGE };
  const match = DATA_URL.exec(dataUrl);
  if (!match) return { error: SIGNATURE_MESSAGE };
  const base64 = match[1];
  if (base64.length % 4 !== 0) return { error: SIGNATURE_MESSAGE };
  if ((base64.length / 4) * 3 > MAX_SIGNATURE_BYTES + 2) return { error: SIGNATURE_TOO_LARGE };
  let head: string;
  try {
    head = atob(base64.slice(0, 12));
  } catch {
    return { error: SIGNATURE_MESSAGE };
  }
  if (!PNG_MAGIC.every((byte, i) => head.charCodeAt(i) === byte)) return { error: SIGNATURE_MESSAGE };
  return { base64 };
}

// What the database refuses too (decision 039): any control character in a
// name; in a multi-line reason, any but tab, line feed and carriage return.
// eslint-disable-next-line no-control-regex
const NO_CONTROL_CHARS = /^[^\u0000-\u001f\u007f]*$/;
// eslint-disable-next-line no-control-regex
const NO_CONTROL_CHARS_BUT_LINES = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

const trimmed = (max: number, message: string) => z.string().trim().max(max, message);

export const acceptQuoteSchema = z.object({
  intent: z.literal('accept'),
  signer_name: z
    .string({ error: 'Type your full name to sign' })
    .trim()
    .min(1, 'Type your full name to sign')
    .max(200, 'At most 200 characters')
    // It goes into the subject of the "accepted" mail: a line break would start a header of its own.
    .regex(NO_CONTROL_CHARS, 'Remove line breaks and other control characters'),
  signer_email: z.email('Enter a valid email address').max(320, 'At most 320 characters').optional(),
  agree: z.literal('on', { error: 'Tick the box to agree to the quote' }),
  signature: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (!value) return;
      const png = signaturePngBase64(value);
      if ('error' in png) ctx.addIssue({ code: 'custom', message: png.error });
    }),
});

export const declineQuoteSchema = z.object({
  intent: z.literal('decline'),
  decline_reason: trimmed(2000, 'At most 2000 characters')
    .regex(NO_CONTROL_CHARS_BUT_LINES, 'Remove control characters other than line breaks')
    .optional(),
});

export const publicQuoteSchema = z.discriminatedUnion('intent', [acceptQuoteSchema, declineQuoteSchema]);
