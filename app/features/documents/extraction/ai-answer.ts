// The optional AI provider's question and answer (decision 082): the request
// an OpenAI-compatible chat-completions endpoint is sent (the same fields the
// template-free extractor finds, as a JSON schema in response_format), and
// its answer held to the same cross-checks as the extractor's own result:
// every value must be printed in the document (an amount among its amounts,
// a date among its dates, a number or a name in its text), an IBAN's check
// digits must hold, subtotal + tax must be the total, the due date not before
// the issue date, the lines must add up. A value that fails is dropped. A kept
// value is never given at 0.8 or more (nothing calibrates the provider): the
// review screen asks the person to look at it. Pure: the unit tests and the
// Worker load it. Relative imports only.
import { amountsIn, currenciesIn, datesIn } from './amounts.ts';
import { cents, linesAddUp } from './cross-checks.ts';
import { FIELD_LINE_CHARS, FIELD_LINES } from './extract-fields.ts';
import { isIsoDate, isValidIban, type DocumentFields, type FieldKey, type LineItem } from './fields.ts';

/** The fields asked for: the extractor's own, less the kind (the extractor's word on it stands). */
const TEXT_KEYS = ['invoice_number', 'order_number', 'supplier_name', 'customer_name', 'tax_id', 'email', 'iban'] as const;
const DATE_KEYS = ['issue_date', 'due_date'] as const;
const AMOUNT_KEYS = ['subtotal', 'tax_amount', 'total'] as const;
const ASKED = [...TEXT_KEYS, ...DATE_KEYS, 'currency', ...AMOUNT_KEYS] as const;

/** The most of a document's text sent: the fields sit on its first pages and its last lines. */
export const MAX_PROMPT_CHARS = 24_000;
/** At most this many lines are read back from an answer. */
const MAX_LINES = 100;

/** How sure a value the provider gave and the checks kept is: below 0.8, so a person looks at it. */
export const AI_CONFIDENCE = 0.6;
/** An amount the provider gave that the sum subtotal + tax = total confirms. */
export const AI_CONFIRMED_CONFIDENCE = 0.7;

const nullable = (type: string) => ({ type: [type, 'null'] });

/** response_format: a JSON schema with every field required (null when the document does not say), as strict mode wants. */
export const ANSWER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [...ASKED, 'line_items'],
  properties: {
    ...Object.fromEntries(ASKED.map((key) => [key, nullable('string')])),
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'quantity', 'unit_price', 'amount'],
        properties: { description: { type: 'string' }, quantity: nullable('string'), unit_price: nullable('string'), amount: nullable('string') },
      },
    },
  },
} as const;

const INSTRUCTIONS = [
  'You read business documents (invoices, receipts, purchase orders) and return their fields as JSON.',
  'Copy values exactly as the document prints them; use null for anything the document does not state. Never guess.',
  'Dates as YYYY-MM-DD. Amounts as plain decimal numbers with a dot and two decimals (1234.50), no currency sign or grouping.',
  'currency: the ISO 4217 code. supplier_name: the party that issued the document and is paid, not the customer.',
  'tax_id: the supplier\'s VAT or tax number. line_items: the rows of the items table.',
].join(' ');

/** The chat-completions request body for one document's text. */
export function chatRequest(model: string, text: string): Record<string, unknown> {
  return {
    model,
    temperature: 0,
    max_tokens: 2_000,
    response_format: { type: 'json_schema', json_schema: { name: 'document_fields', strict: true, schema: ANSWER_SCHEMA } },
    messages: [
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: text.slice(0, MAX_PROMPT_CHARS) },
    ],
  };
}

export class AiAnswerError extends Error {}

/** The JSON object in a chat-completions answer (choices[0].message.content), or an error saying what was wrong. */
export function answerObject(body: unknown): Record<string, unknown> {
  const content = (body as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new AiAnswerError('The AI provider gave no answer');
  let parsed: unknown;
  try {
    // Some servers wrap JSON in a code fence despite response_format.
    parsed = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    throw new AiAnswerError('The AI provider\'s answer is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AiAnswerError('The AI provider\'s answer is not a JSON object');
  return parsed as Record<string, unknown>;
}

const squash = (value: string) => value.toLowerCase().replace(/\s+/g, '');

/** An amount as the checks compare it: 1234.50, or null when it is not a plain amount. */
function plainAmount(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).trim().replace(/[\s,](?=\d{3}\b)/g, '');
  return /^\d{1,12}(?:\.\d{1,2})?$/.test(text) ? Number(text).toFixed(2) : null;
}

const short = (value: unknown, max = 200): string | null => (typeof value === 'string' && value.trim() !== '' && value.length <= max ? value.trim() : null);

/**
 * The values of an answer that the document bears out, each checked on its
 * own (printed in the text, of its shape), then together (the amounts add up,
 * the dates are in order, the lines sum to the subtotal or the total).
 */
export function checkedAnswer(answer: Record<string, unknown>, text: string): DocumentFields {
  const fields: DocumentFields = {};
  const printed = squash(text);
  // The same bounded lines the extractor reads (a pasted line of 100,000 digits would cost the patterns seconds).
  const textLines = text.split('\n', FIELD_LINES).map((line) => line.slice(0, FIELD_LINE_CHARS));
  const amounts = new Set(textLines.flatMap((line) => amountsIn(line)).map(cents));
  const dates = new Set(textLines.flatMap((line) => [...datesIn(line), ...datesIn(line, true)]));
  const currencies = new Set(textLines.flatMap((line) => currenciesIn(line)));

  for (const key of TEXT_KEYS) {
    const value = short(answer[key]);
    if (!value || !printed.includes(squash(value))) continue;
    if (key === 'iban' && !isValidIban(value)) continue;
    if (key === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) continue;
    // A tax id is never an amount (issue 34: a VAT number read as a total, and the other way round).
    if (key === 'tax_id' && (plainAmount(value) !== null || !/\d{4}/.test(value.replace(/\D/g, '')))) continue;
    fields[key] = { value: key === 'iban' ? value.replace(/\s+/g, '').toUpperCase() : value, confidence: AI_CONFIDENCE };
  }
  for (const key of DATE_KEYS) {
    const value = short(answer[key], 10);
    if (value && isIsoDate(value) && dates.has(value)) fields[key] = { value, confidence: AI_CONFIDENCE };
  }
  if (fields.issue_date && fields.due_date && fields.due_date.value < fields.issue_date.value) delete fields.due_date;
  const currency = short(answer.currency, 3)?.toUpperCase();
  if (currency && currencies.has(currency)) fields.currency = { value: currency, confidence: AI_CONFIDENCE };

  // The amounts: each printed in the document, none the tax id's digits; then subtotal + tax = total, or they go together.
  const taxIdDigits = fields.tax_id ? fields.tax_id.value.replace(/\D/g, '') : null;
  const amount = (key: (typeof AMOUNT_KEYS)[number]) => {
    const value = plainAmount(answer[key]);
    if (value === null || !amounts.has(cents(value))) return null;
    if (taxIdDigits && taxIdDigits.includes(value.replace(/\.00$/, '').replace('.', ''))) return null;
    return value;
  };
  const [subtotal, tax, total] = [amount('subtotal'), amount('tax_amount'), amount('total')];
  if (total && subtotal && tax) {
    if (cents(subtotal) + cents(tax) === cents(total) && cents(tax) <= cents(subtotal)) {
      fields.subtotal = { value: subtotal, confidence: AI_CONFIRMED_CONFIDENCE };
      fields.tax_amount = { value: tax, confidence: AI_CONFIRMED_CONFIDENCE };
      fields.total = { value: total, confidence: AI_CONFIRMED_CONFIDENCE };
    }
  } else if (total && !(subtotal && cents(subtotal) > cents(total))) {
    fields.total = { value: total, confidence: AI_CONFIDENCE - 0.1 };
  }

  const items = Array.isArray(answer.line_items) ? answer.line_items.slice(0, MAX_LINES) : [];
  const lines: LineItem[] = [];
  for (const raw of items) {
    const item = raw as Record<string, unknown> | null;
    const description = short(item?.description, 500);
    const lineAmount = plainAmount(item?.amount);
    if (!description || !printed.includes(squash(description).slice(0, 40)) || lineAmount === null || !amounts.has(cents(lineAmount))) {
      lines.length = 0;
      break;
    }
    lines.push({ description, quantity: plainAmount(item?.quantity)?.replace(/\.00$/, '') ?? null, unit_price: plainAmount(item?.unit_price), amount: lineAmount });
  }
  if (lines.length > 0) {
    fields.line_items = { value: lines, confidence: AI_CONFIDENCE };
    if (linesAddUp(fields) !== true) delete fields.line_items;
  }
  return fields;
}

/**
 * The extractor's fields with the provider's checked ones where the
 * extractor had none or was unsure (below 0.8). A value the extractor was
 * sure of is never replaced; the amounts are taken as a set (the provider's
 * total beside the extractor's subtotal could add up to nothing).
 */
export function mergeAnswer(own: DocumentFields, ai: DocumentFields): DocumentFields {
  const merged: DocumentFields = { ...own };
  const unsure = (key: FieldKey | 'line_items') => {
    const field = own[key as FieldKey] ?? (key === 'line_items' ? own.line_items : undefined);
    return !field || field.confidence < 0.8;
  };
  for (const key of [...TEXT_KEYS, ...DATE_KEYS, 'currency'] as const) {
    const value = ai[key];
    if (value && unsure(key) && value.value !== own[key]?.value) merged[key] = value;
  }
  if (merged.due_date && merged.issue_date && merged.due_date.value < merged.issue_date.value) {
    // The provider's date lost against the extractor's: keep the extractor's and flag it.
    if (own.due_date) merged.due_date = { ...own.due_date, confidence: Math.min(own.due_date.confidence, 0.5) };
    else delete merged.due_date;
  }
  if (ai.total && ai.subtotal && ai.tax_amount && AMOUNT_KEYS.some((key) => unsure(key))) {
    // Three amounts that add up replace the extractor's unconfirmed ones together.
    for (const key of AMOUNT_KEYS) merged[key] = ai[key];
  } else if (ai.total && !own.total) {
    // A lone total only where the extractor found none; a subtotal of the extractor's above it goes.
    merged.total = ai.total;
    if (own.subtotal && cents(own.subtotal.value) > cents(ai.total.value)) delete merged.subtotal;
  }
  if (ai.line_items && unsure('line_items')) merged.line_items = ai.line_items;
  return merged;
}
