import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_EXTENSIONS,
  formatFileSize,
  MAX_UPLOAD_BYTES,
  NO_FILE_MESSAGE,
  TOO_LARGE_MESSAGE,
  uploadDocumentSchema,
  WRONG_TYPE_MESSAGE,
} from '../../app/lib/schemas/documents.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);

describe('upload document form', () => {
  it('accepts each of the spec’s file types, in any letter case', () => {
    expect(ACCEPTED_EXTENSIONS).toEqual(['.pdf', '.doc', '.docx', '.xls', '.xlsx', '.txt', '.jpg', '.jpeg', '.png']);
    for (const extension of ACCEPTED_EXTENSIONS) {
      expect(valueOf(uploadDocumentSchema, { file: file(`report${extension}`), title: 'Report' }).type).toBe('other');
    }
    expect(valueOf(uploadDocumentSchema, { file: file('SCAN.PDF'), title: 'Scan', type: 'legal' }).type).toBe('legal');
  });

  it("answers 'Please select a file to upload' without a file", () => {
    // A browser sends an empty file part when no file was chosen.
    expect(errorsOf(uploadDocumentSchema, { file: new File([], ''), title: 'Report' })).toEqual({ file: [NO_FILE_MESSAGE] });
    expect(errorsOf(uploadDocumentSchema, { title: 'Report' })).toEqual({ file: [NO_FILE_MESSAGE] });
  });

  it('refuses other file types and files over the size limit', () => {
    expect(errorsOf(uploadDocumentSchema, { file: file('run.exe'), title: 'x' }).file).toEqual([WRONG_TYPE_MESSAGE]);
    expect(errorsOf(uploadDocumentSchema, { file: file('notes.pdf.zip'), title: 'x' }).file).toEqual([WRONG_TYPE_MESSAGE]);
    expect(errorsOf(uploadDocumentSchema, { file: file('big.pdf', MAX_UPLOAD_BYTES + 1), title: 'x' }).file).toEqual([
      TOO_LARGE_MESSAGE,
    ]);
  });

  it('requires a title', () => {
    expect(errorsOf(uploadDocumentSchema, { file: file('a.txt') })).toEqual({ title: ['Title is required'] });
  });

  it('shows sizes as people read them', () => {
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(2_516_582)).toBe('2.4 MB');
    expect(formatFileSize(251_904)).toBe('246.0 KB');
  });
});
