// Field building blocks of the settings forms, so a required text, an email
// or a JSON box says the same thing on every settings screen.
import { z } from './zod';

/** A required line of text. Conform turns an empty input into undefined, hence the type error message. */
export function requiredText(label: string, max = 200) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
}

export function optionalText(label: string, max = 200) {
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

export const MAX_JSON_LENGTH = 20_000;

/**
 * JSON typed into a textarea (spec §5): a parse failure carries the parser's
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
