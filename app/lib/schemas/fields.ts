// Field building blocks shared by every form's schema (business, module and
// settings screens), so a required text, an email or a JSON box says the same
// thing on every form.
import { z } from './zod';
import { parseMoneyToCents } from '../money';

/** A required line of text. Conform turns an empty input into undefined, hence the type error message. */
export function requiredText(label: string, max = 200) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
}

export function optionalText(label: string, max = 2000) {
  return z.string().trim().max(max, `${label} must be at most ${max} characters`).optional();
}

export function requiredEmail(label = 'Email') {
  return z
    .email({ error: (issue) => (issue.input === undefined ? `${label} is required` : 'Enter a valid email address') })
    .max(254, 'Email is too long');
}

export function optionalEmail() {
  return z.email({ error: 'Enter a valid email address' }).max(254, 'Email is too long').optional();
}

export const uuid = z.uuid({ error: 'Invalid id' });

/** A list row's Activate/Deactivate button (SetActiveButton): the state it asks for. */
export const setActiveSchema = z.object({
  intent: z.literal('set-active'),
  id: uuid,
  active: z.enum(['true', 'false']).transform((value) => value === 'true'),
});

/** A delete confirmed in a list's `?delete=<id>` dialog. */
export const deleteByIdSchema = z.object({ intent: z.literal('delete'), id: uuid });

export const MAX_JSON_LENGTH = 20_000;

/**
 * JSON typed into a textarea (docs/product-guide.md): a parse failure carries the parser's
 * own message. Empty means null when optional.
 */
export function jsonText(label: string, options: { required: true; objectOnly?: boolean }): z.ZodType<unknown>;
export function jsonText(label: string, options: { required: false }): z.ZodType<unknown>;
export function jsonText(label: string, options: { required: boolean; objectOnly?: boolean }) {
  const text = z
    .string({ error: `${label} is required` })
    .trim()
    .max(MAX_JSON_LENGTH, `${label} must be at most ${MAX_JSON_LENGTH} characters`);
  const parse = (value: string | undefined, ctx: z.RefinementCtx): unknown => {
    if (value === undefined || value === '') return null;
    try {
      const parsed: unknown = JSON.parse(value);
      if (options.objectOnly && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a JSON object` });
        return z.NEVER;
      }
      return parsed;
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      return z.NEVER;
    }
  };
  return options.required ? text.min(1, `${label} is required`).transform(parse) : text.optional().transform(parse);
}

/** A calendar date as an <input type="date"> sends it: YYYY-MM-DD, and a real day. */
export function requiredDate(label: string) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .refine((value) => isRealDate(value), `${label} must be a date`);
}

/** YYYY-MM-DD naming a day that exists (no 2025-02-30). */
export function isRealDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * A decimal amount typed by a person (step 0.01, minimum 0), turned into
 * integer cents by the one money parser.
 */
export function moneyInCents(label: string) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .transform((value, ctx) => {
      const cents = parseMoneyToCents(value);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: `${label} must be an amount of at least 0 with up to 2 decimals` });
        return z.NEVER;
      }
      return cents;
    });
}

/** The field error of a price that a currency without minor units (JPY) cannot take: "Unit price must be a whole amount in JPY". */
export function wholeAmountMessage(label: string, currency: string): string {
  return `${label} must be a whole amount in ${currency}`;
}

/**
 * The earliest day that is today somewhere (UTC-12). A form refuses a due
 * date before it; the database then holds the exact rule, today in the
 * account's time zone, and its refusal is shown under the same field.
 */
export function earliestToday(now = new Date()): string {
  return new Date(now.getTime() - 12 * 3_600_000).toISOString().slice(0, 10);
}

/** A percentage as typed (tax rate, discount): 0 to 100 with up to two decimals; empty is 0. */
export function percentage(label: string) {
  const message = `${label} must be a percentage from 0 to 100 with up to 2 decimals`;
  return z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return 0;
      if (!/^\d{1,3}(\.\d{1,2})?$/.test(value) || Number(value) > 100) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return Number(value);
    });
}

/** Turns a list of values into a Zod enum with a readable error. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, label: string) {
  const noun = label.toLowerCase();
  return z.enum(values, { error: `Choose ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}` });
}

/** The options of a <select>: value and what a person reads. */
export interface Option<T extends string = string> {
  value: T;
  label: string;
}
