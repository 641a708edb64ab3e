// Templates (docs/product-guide.md): name and content required; type defaults to
// email; only an email has a subject; variables are JSON, empty → null.
import { z } from './zod';
import { TEMPLATE_TYPES } from '../settings-options';
import { deleteByIdSchema, jsonText, optionalText, requiredText, uuid } from './fields';

export const templateFormSchema = z.object({
  intent: z.literal('save'),
  id: uuid.optional(),
  name: requiredText('Name'),
  type: z.enum(TEMPLATE_TYPES, { error: 'Choose a type' }).default('email'),
  subject: optionalText('Subject', 300),
  content: requiredText('Content', 20_000),
  variables: jsonText('Variables', { required: false }),
});

export const templateActionSchema = z.discriminatedUnion('intent', [templateFormSchema, deleteByIdSchema]);

export type TemplateForm = z.output<typeof templateFormSchema>;

export const TEMPLATE_TEXTS = {
  created: 'Template created successfully',
  updated: 'Template updated successfully',
  deleted: 'Template deleted successfully',
  saveFailed: 'Failed to save template',
  deleteFailed: 'Failed to delete template',
  loadFailed: 'Failed to fetch templates',
} as const;
