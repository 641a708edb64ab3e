// Parses a form as the server does (Conform's coercion, then the schema), so
// the unit tests see exactly the errors a visitor would.
import { parseWithZod } from '@conform-to/zod/v4';
import type { z } from 'zod';

export function formOf(fields: Record<string, string | File>): FormData {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.append(name, value);
  return formData;
}

export function parse<Schema extends z.ZodType>(schema: Schema, fields: Record<string, string | File>) {
  return parseWithZod(formOf(fields), { schema });
}

/** The field errors of a form that should fail, by field name. */
export function errorsOf<Schema extends z.ZodType>(schema: Schema, fields: Record<string, string | File>) {
  const submission = parse(schema, fields);
  if (submission.status === 'success') throw new Error('expected the form to be refused');
  return submission.error ?? {};
}

/** The parsed value of a form that should pass. */
export function valueOf<Schema extends z.ZodType>(schema: Schema, fields: Record<string, string | File>): z.output<Schema> {
  const submission = parse(schema, fields);
  if (submission.status !== 'success') throw new Error(`expected success, got ${JSON.stringify(submission.error)}`);
  return submission.value as z.output<Schema>;
}
