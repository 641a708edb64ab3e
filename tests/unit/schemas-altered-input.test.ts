// The words a tampered form gets where a schema has none of its own: a file,
// or the same field twice, where one line of text is expected.
import { describe, expect, it } from 'vitest';
import { newLeadSchema } from '../../app/features/leads/schema.ts';
import { FIELD_REPEATED_MESSAGE, FILE_FOR_TEXT_MESSAGE } from '../../app/lib/schemas/zod.ts';
import { parseWithZod } from '@conform-to/zod/v4';
import { errorsOf, formOf } from './support/schemas.ts';

const lead = { name: 'Ada Lovelace', email: 'ada@example.test', company: 'Analytical Engines' };

describe('altered form input', () => {
  it('says a file was sent where an optional text field expects text', () => {
    const errors = errorsOf(newLeadSchema, { ...lead, role: new File(['x'], 'role.txt', { type: 'text/plain' }) });
    expect(errors.role).toEqual([FILE_FOR_TEXT_MESSAGE]);
  });

  it('says a field was sent more than once', () => {
    const form = formOf(lead);
    form.append('role', 'Engineer');
    form.append('role', 'Countess');
    const submission = parseWithZod(form, { schema: newLeadSchema });
    if (submission.status === 'success') throw new Error('expected the form to be refused');
    expect(submission.error?.role).toEqual([FIELD_REPEATED_MESSAGE]);
  });

  it('keeps a schema’s own words where it has them', () => {
    const errors = errorsOf(newLeadSchema, { ...lead, name: new File(['x'], 'name.txt', { type: 'text/plain' }) });
    expect(errors.name).toEqual(['Full name is required']);
  });

  it('leaves a checkbox list that gets several values alone', () => {
    const form = formOf(lead);
    form.append('interest', 'cpq');
    form.append('interest', 'rfp');
    const submission = parseWithZod(form, { schema: newLeadSchema });
    expect(submission.status).toBe('success');
  });
});
