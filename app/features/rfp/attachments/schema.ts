// A bid's files' forms (issue 38; decision 091): attach one (a multipart post: the file; its type is then
// decided by its bytes on the server) and remove one (its id), told apart by intent.
import { z } from '~/lib/schemas/zod';
import { uuid } from '~/lib/schemas/fields';
import { MAX_DOCUMENT_BYTES } from '~/features/documents/values';
import { ATTACHMENT_TEXTS } from './texts';

export const MAX_ATTACHMENT_BYTES = MAX_DOCUMENT_BYTES;

export const attachSchema = z.object({
  intent: z.literal('attach'),
  file: z
    .file({ error: ATTACHMENT_TEXTS.noFile })
    .refine((file) => file.size > 0, ATTACHMENT_TEXTS.noFile)
    .refine((file) => file.size <= MAX_ATTACHMENT_BYTES, ATTACHMENT_TEXTS.tooLarge),
});

export const removeFileSchema = z.object({ intent: z.literal('remove-file'), file_id: uuid });
