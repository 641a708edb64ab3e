// The answer library's and the bid files' forms (decision 091), parsed as the server parses them.
import { describe, expect, it } from 'vitest';
import { answerActionSchema, parseTags, useAnswerSchema } from '../../app/features/rfp/answers/schema.ts';
import { attachSchema, removeFileSchema } from '../../app/features/rfp/attachments/schema.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

const ID = '6f1c1d9e-0000-4000-8000-000000000001';

describe('the answer library forms', () => {
  it('keeps tags lower case, trimmed and once each', () => {
    expect(parseTags(' Security, ISO  27001,security,, ')).toEqual(['security', 'iso 27001']);
    expect(valueOf(answerActionSchema, { intent: 'create', title: ' Insurance ', body: 'Covered.', tags: 'Liability' }))
      .toEqual({ intent: 'create', title: 'Insurance', body: 'Covered.', tags: ['liability'] });
    expect(valueOf(answerActionSchema, { intent: 'create', title: 'No tags', body: 'x' })).toMatchObject({ tags: [] });
  });

  it('refuses what the table refuses, with a reason for the field', () => {
    expect(errorsOf(answerActionSchema, { intent: 'create', title: '', body: 'x' })).toHaveProperty('title');
    expect(errorsOf(answerActionSchema, { intent: 'create', title: 'Line\nbreak', body: 'x' }).title).toEqual(['Remove line breaks and other control characters']);
    expect(errorsOf(answerActionSchema, { intent: 'create', title: 'Long', body: 'x'.repeat(10_001) })).toHaveProperty('body');
    expect(errorsOf(answerActionSchema, { intent: 'create', title: 'Bell', body: 'ring\u0007' })).toHaveProperty('body');
    expect(errorsOf(answerActionSchema, { intent: 'create', title: 'Tags', body: 'x', tags: Array.from({ length: 21 }, (_, i) => `t${i}`).join(',') }).tags)
      .toEqual(['At most 20 tags']);
    expect(errorsOf(answerActionSchema, { intent: 'create', title: 'Tag', body: 'x', tags: 'y'.repeat(41) }).tags).toEqual(['Each tag must be at most 40 characters']);
    expect(errorsOf(answerActionSchema, { intent: 'update', id: 'nope', title: 'T', body: 'x' })).toHaveProperty('id');
    expect(valueOf(answerActionSchema, { intent: 'delete', id: ID })).toEqual({ intent: 'delete', id: ID });
    expect(errorsOf(useAnswerSchema, { intent: 'use-answer', answer_id: 'x' })).toHaveProperty('answer_id');
  });
});

describe("a bid's file forms", () => {
  it('needs a file that is not empty, and an id to remove', () => {
    expect(errorsOf(attachSchema, { intent: 'attach' }).file).toEqual(['Please select a file to upload']);
    expect(errorsOf(attachSchema, { intent: 'attach', file: new File([], 'empty.pdf') }).file).toEqual(['Please select a file to upload']);
    expect(valueOf(attachSchema, { intent: 'attach', file: new File(['%PDF-1.4'], 'a.pdf') }).file.name).toBe('a.pdf');
    expect(errorsOf(removeFileSchema, { intent: 'remove-file', file_id: '' })).toHaveProperty('file_id');
  });
});
