// The helpdesk SLA settings form (decision 075): business hours and the
// targets per priority, in hours (stored as business minutes). The database
// checks the same (save_helpdesk_sla, the tables' checks); this says it at the field.
import { z } from '~/lib/schemas/zod';
import { ALL_TIMEZONES } from '~/features/settings/settings-options';

export const PRIORITY_KEYS = ['urgent', 'high', 'normal', 'low'] as const;
export type PriorityKey = (typeof PRIORITY_KEYS)[number];
export const WEEKDAY_OPTIONS = [
  { value: '1', label: 'Monday' },
  { value: '2', label: 'Tuesday' },
  { value: '3', label: 'Wednesday' },
  { value: '4', label: 'Thursday' },
  { value: '5', label: 'Friday' },
  { value: '6', label: 'Saturday' },
  { value: '7', label: 'Sunday' },
] as const;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const MAX_HOURS = 1440;
const MAX_HOLIDAYS = 100;

const hours = (label: string) =>
  z
    .number({ error: `Enter the ${label} in hours` })
    .min(0.25, `The ${label} must be at least 0.25 hours`)
    .max(MAX_HOURS, `The ${label} can be at most ${MAX_HOURS} hours`);

/** One date a line (YYYY-MM-DD), blank lines ignored: the holidays as ISO dates, or an error text. */
export function parseHolidays(text: string): string[] | string {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  if (lines.length > MAX_HOLIDAYS) return `At most ${MAX_HOLIDAYS} holidays`;
  for (const line of lines) {
    const valid = /^\d{4}-\d{2}-\d{2}$/.test(line) && new Date(`${line}T00:00:00Z`).toISOString().slice(0, 10) === line;
    if (!valid) return `"${line.slice(0, 20)}" is not a date like 2026-12-25`;
  }
  return [...new Set(lines)].sort();
}

const targets = Object.fromEntries(
  PRIORITY_KEYS.flatMap((p) => [
    [`first_response_${p}`, hours('first response target')],
    [`resolution_${p}`, hours('resolution target')],
    // Decision 083: from a customer's later message to our next reply.
    [`next_response_${p}`, hours('next response target')],
  ]),
) as Record<`first_response_${PriorityKey}` | `resolution_${PriorityKey}` | `next_response_${PriorityKey}`, ReturnType<typeof hours>>;

export const slaSettingsSchema = z
  .object({
    timezone: z.string({ error: 'Choose a timezone' }).refine((v) => ALL_TIMEZONES.includes(v), 'Choose a timezone'),
    days: z
      .array(z.enum(WEEKDAY_OPTIONS.map((d) => d.value) as [string, ...string[]], { error: 'Choose business days' }), {
        error: 'Choose at least one business day',
      })
      .min(1, 'Choose at least one business day'),
    opens_at: z.string({ error: 'Enter the opening time' }).regex(TIME, 'Enter a time like 09:00'),
    closes_at: z.string({ error: 'Enter the closing time' }).regex(TIME, 'Enter a time like 17:00'),
    holidays: z.string().max(2000, 'The holidays can be at most 2,000 characters').optional(),
    ...targets,
  })
  .superRefine((value, ctx) => {
    if (value.closes_at <= value.opens_at) ctx.addIssue({ code: 'custom', path: ['closes_at'], message: 'Closing time must be after opening time' });
    const holidays = parseHolidays(value.holidays ?? '');
    if (typeof holidays === 'string') ctx.addIssue({ code: 'custom', path: ['holidays'], message: holidays });
  });

export type SlaSettings = z.infer<typeof slaSettingsSchema>;

/** The save_helpdesk_sla arguments of a valid form: hours become whole minutes. */
export function slaArgs(form: SlaSettings) {
  const minutes = (h: number) => Math.max(1, Math.round(h * 60));
  return {
    p_timezone: form.timezone,
    p_days: form.days.map(Number),
    p_opens: form.opens_at,
    p_closes: form.closes_at,
    p_holidays: parseHolidays(form.holidays ?? '') as string[],
    p_targets: Object.fromEntries(
      PRIORITY_KEYS.map((p) => [
        p,
        {
          first_response_minutes: minutes(form[`first_response_${p}`]),
          resolution_minutes: minutes(form[`resolution_${p}`]),
          next_response_minutes: minutes(form[`next_response_${p}`]),
        },
      ]),
    ),
  };
}

/** The defaults private.helpdesk_policy works to when the account set nothing (minutes). */
// Next response defaults to the first response's target (private.helpdesk_next_response_minutes).
export const DEFAULT_TARGETS: Record<PriorityKey, { first_response_minutes: number; resolution_minutes: number; next_response_minutes: number | null }> = {
  urgent: { first_response_minutes: 60, resolution_minutes: 240, next_response_minutes: null },
  high: { first_response_minutes: 240, resolution_minutes: 960, next_response_minutes: null },
  normal: { first_response_minutes: 480, resolution_minutes: 2400, next_response_minutes: null },
  low: { first_response_minutes: 960, resolution_minutes: 4800, next_response_minutes: null },
};
