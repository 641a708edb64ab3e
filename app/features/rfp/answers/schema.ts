// The answer library's forms (issue 38; decision 091): an answer's title, body and tags (typed as a comma-
// separated list, kept lower case, each at most 40 characters, at most 20), told apart by intent; and the bid
// page's "Add to proposal" (an answer's id). The database checks the same limits again.
import { z } from '~/lib/schemas/zod';
import { requiredText, uuid } from '~/lib/schemas/fields';

// Control characters in a title: refused (it shows in lists and on one line).
// eslint-disable-next-line no-control-regex -- the check itself
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- the check itself
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const ANSWER_TAGS_MAX = 20;
/** The library's page shows this many; a search narrows it. */
export const ANSWERS_SHOWN = 100;

/** "Security, ISO 27001, security" → ['security', 'iso 27001']. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((tag) => tag.trim().replace(/\s+/g, ' ').toLowerCase()).filter(Boolean))];
}

const tags = z
  .string()
  .max(1000, 'Tags must be at most 1000 characters')
  .optional()
  .transform((text) => parseTags(text ?? ''))
  .refine((list) => list.length <= ANSWER_TAGS_MAX, `At most ${ANSWER_TAGS_MAX} tags`)
  .refine((list) => list.every((tag) => tag.length <= 40), 'Each tag must be at most 40 characters')
  .refine((list) => list.every((tag) => !CONTROL.test(tag)), 'Remove control characters from the tags');

export const answerFieldsSchema = z.object({
  title: requiredText('Title').refine((value) => !CONTROL.test(value), 'Remove line breaks and other control characters'),
  body: requiredText('Answer', 10_000).refine((value) => !CONTROL_IN_TEXT.test(value), 'Remove control characters from the answer'),
  tags,
});
export type AnswerFields = z.output<typeof answerFieldsSchema>;

export const answerActionSchema = z.discriminatedUnion('intent', [
  answerFieldsSchema.extend({ intent: z.literal('create') }),
  answerFieldsSchema.extend({ intent: z.literal('update'), id: uuid }),
  z.object({ intent: z.literal('delete'), id: uuid }),
]);

/** The bid page's "Add to proposal": the answer appended to the bid's proposal. */
export const useAnswerSchema = z.object({ intent: z.literal('use-answer'), answer_id: uuid });
