// Templates (docs/product-guide.md): name and content required; type defaults to
// email; only an email has a subject; variables are JSON, empty → null.
import { z } from '~/lib/schemas/zod';
import { deleteByIdSchema, jsonText, optionalText, requiredText, uuid } from '~/lib/schemas/fields';

export const TEMPLATE_TYPES = ['email', 'quote', 'invoice', 'contract'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];
export const DEFAULT_TEMPLATE_TYPE: TemplateType = 'email';
export const TEMPLATE_TYPE_LABELS: Record<TemplateType, string> = {
  email: 'Email',
  quote: 'Quote',
  invoice: 'Invoice',
  contract: 'Contract',
};
/** A stored type's label (the type itself, should the database hold one the app does not know). */
export function templateTypeLabel(type: string): string {
  return (TEMPLATE_TYPE_LABELS as Record<string, string>)[type] ?? type;
}

/** As docs/product-guide.md says: the list shows the first 200 characters of a template's content, nothing appended. */
export const TEMPLATE_PREVIEW_LENGTH = 200;

export function contentPreview(content: string): string {
  return content.slice(0, TEMPLATE_PREVIEW_LENGTH);
}

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
