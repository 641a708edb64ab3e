// The radar's forms (issue 38; decision 079), each a plain post told apart by its intent and validated on
// the server: a feed source added or edited (name, address, format), a saved search added or edited
// (keywords, CPV codes, buyer countries, a minimum value in a currency, a deadline horizon), either deleted,
// and an opportunity dismissed (with an optional reason). Pursuing one is the New RFP Response dialog.
import { z } from '~/lib/schemas/zod';
import { CURRENCY_CODES } from '~/lib/currencies';
import { moneyInCents, oneOf, optionalText, requiredText, uuid } from '~/lib/schemas/fields';

export const FEED_FORMATS = ['ocds', 'ted', 'rss'] as const;
export const FEED_FORMAT_LABELS: Record<(typeof FEED_FORMATS)[number], string> = {
  ocds: 'OCDS release package (Contracts Finder, Find a Tender)',
  ted: 'TED search JSON (EU Tenders Electronic Daily)',
  rss: 'RSS 2.0 or Atom',
};
export const FEED_FORMAT_OPTIONS = FEED_FORMATS.map((value) => ({ value, label: FEED_FORMAT_LABELS[value] }));

/** When a new match is mailed at once (its score at least this), or 'off': the daily digest only. */
export const ALERT_SCORES = ['90', '80', '70', '60', '50', 'off'] as const;
export const ALERT_SCORE_OPTIONS = ALERT_SCORES.map((value) => ({ value, label: value === 'off' ? 'Never: daily digest only' : `Score ${value} or more` }));

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\x00-\x1f\x7f]/;

const sourceFields = {
  name: requiredText('Name'),
  url: requiredText('Feed address', 2000).refine((value) => /^https?:\/\/\S+$/i.test(value), 'Enter the feed\'s full address, starting with https://'),
  format: oneOf(FEED_FORMATS, 'Format'),
  // A TED source's expert query, POSTed to TED's search (decision 092); one line, no control characters.
  query: optionalText('TED expert query', 2000).refine((value) => !value || !CONTROL_CHARACTERS.test(value), 'Write the query on one line'),
};

/** A query only for a TED source (the database holds the same rule). */
const queryNeedsTed = (form: { format: string; query?: string }) => !form.query || form.format === 'ted';
const queryIssue = { path: ['query'], message: 'Only a TED source takes an expert query' };

/** A list typed as text: split on commas (and, for codes, spaces), blanks dropped. */
const listOf = (label: string, split: RegExp, max: number, each: (item: string) => string | null, message: string) =>
  z.string().max(2000, `${label} is too long`).optional().transform((value, ctx) => {
    const items = [...new Set((value ?? '').split(split).map((item) => item.trim()).filter(Boolean))];
    if (items.length > max) {
      ctx.addIssue({ code: 'custom', message: `${label}: at most ${max}` });
      return z.NEVER;
    }
    const out: string[] = [];
    for (const item of items) {
      const clean = each(item);
      if (clean === null) {
        ctx.addIssue({ code: 'custom', message: `${message}: ${item.slice(0, 40)}` });
        return z.NEVER;
      }
      out.push(clean);
    }
    return out;
  });

const searchFields = {
  name: requiredText('Name'),
  keywords: listOf('Keywords', /,/, 20, (k) => (k.length <= 100 ? k : null), 'A keyword is at most 100 characters'),
  cpv_codes: listOf('CPV codes', /[\s,;]+/, 50, (c) => /^(\d{8})(-\d)?$/.exec(c)?.[1] ?? null, 'A CPV code has eight digits'),
  countries: listOf('Buyer countries', /[\s,;]+/, 50, (c) => (/^[a-z]{2}$/i.test(c) ? c.toUpperCase() : null), 'Use two-letter country codes such as GB or DE'),
  min_value: z.preprocess((value) => (value === '' ? undefined : value), moneyInCents('Minimum value').optional()),
  min_currency: z.preprocess((value) => (value === '' ? undefined : value), oneOf(CURRENCY_CODES, 'Currency').optional()),
  horizon_days: z.coerce.number({ error: 'Deadline horizon is required' }).int('Deadline horizon is a whole number of days')
    .min(1, 'Deadline horizon is at least 1 day').max(730, 'Deadline horizon is at most 730 days'),
  // The score from which a new match is mailed at once (decision 092): 80 when the form leaves it out, 'off' for none.
  alert_score: z.preprocess((value) => (value === undefined || value === '' ? '80' : value), z.enum(ALERT_SCORES, { error: 'Choose when to mail at once' })
    .transform((value) => (value === 'off' ? null : Number(value)))),
};

const minimumNeedsCurrency = (form: { min_value?: number; min_currency?: string }) => (form.min_value === undefined) === (form.min_currency === undefined);
const minimumIssue = { path: ['min_currency'], message: 'Give the minimum value and its currency together' };

export const addSourceSchema = z.object({ intent: z.literal('add-source'), ...sourceFields }).refine(queryNeedsTed, queryIssue);
export const updateSourceSchema = z.object({ intent: z.literal('update-source'), id: uuid, ...sourceFields }).refine(queryNeedsTed, queryIssue);
export const addSearchSchema = z.object({ intent: z.literal('add-search'), ...searchFields }).refine(minimumNeedsCurrency, minimumIssue);
export const updateSearchSchema = z.object({ intent: z.literal('update-search'), id: uuid, ...searchFields }).refine(minimumNeedsCurrency, minimumIssue);

export const radarSettingsActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('add-source'), ...sourceFields }),
  z.object({ intent: z.literal('update-source'), id: uuid, ...sourceFields }),
  z.object({ intent: z.literal('add-search'), ...searchFields }),
  z.object({ intent: z.literal('update-search'), id: uuid, ...searchFields }),
  z.object({ intent: z.literal('delete-source'), id: uuid }),
  z.object({ intent: z.literal('delete-search'), id: uuid }),
]).refine((form) => !('horizon_days' in form) || minimumNeedsCurrency(form), minimumIssue)
  .refine((form) => !('format' in form) || queryNeedsTed(form), queryIssue);
export type RadarSettingsForm = z.output<typeof radarSettingsActionSchema>;
export type SourceForm = Omit<z.output<typeof addSourceSchema>, 'intent'>;
export type SearchForm = Omit<z.output<typeof addSearchSchema>, 'intent'>;

export const dismissSchema = z.object({ intent: z.literal('dismiss'), id: uuid, reason: optionalText('Reason', 500) });
