import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_EXTENSIONS,
  formatFileSize,
  MAX_DOCUMENT_BYTES,
  NO_FILE_MESSAGE,
  TOO_LARGE_MESSAGE,
  reviewSchema,
  uploadDocumentSchema,
  WRONG_TYPE_MESSAGE,
} from '../../app/features/documents/schema.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);

describe('upload document form', () => {
  it('accepts each of the spec’s file types, in any letter case', () => {
    // .csv besides the spec's list: doc2data extracts CSV (decision 023).
    expect(ACCEPTED_EXTENSIONS).toEqual(['.pdf', '.doc', '.docx', '.xls', '.xlsx', '.txt', '.csv', '.jpg', '.jpeg', '.png']);
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
    expect(errorsOf(uploadDocumentSchema, { file: file('big.pdf', MAX_DOCUMENT_BYTES + 1), title: 'x' }).file).toEqual([
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

describe('review of extracted fields', () => {
  it('keeps what is well formed, upper-cases the currency, and leaves empty fields out', () => {
    const value = valueOf(reviewSchema, {
      intent: 'review', kind: 'invoice', invoice_number: ' INV-7 ', issue_date: '2025-03-14', total: '1542.60', currency: 'gbp',
      iban: 'GB82 WEST 1234 5698 7654 32', email: 'billing@northwind.test', supplier_name: '',
    });
    expect(value).toMatchObject({ invoice_number: 'INV-7', issue_date: '2025-03-14', total: '1542.60', currency: 'GBP' });
    expect(value.supplier_name).toBeUndefined();
  });

  it('says what is wrong under each field', () => {
    expect(
      errorsOf(reviewSchema, {
        intent: 'review', kind: 'letter', issue_date: '2025-02-30', total: '12,50', currency: 'EURO', iban: 'GB00 WEST 1234 5698 7654 32', email: 'nobody',
      }),
    ).toEqual({
      kind: ['Choose a document kind'],
      issue_date: ['Enter a date as YYYY-MM-DD'],
      total: ['Enter an amount such as 1250.00'],
      currency: ['Enter a three-letter currency code such as EUR'],
      iban: ['This IBAN is not valid: check its letters and digits'],
      email: ['Enter a valid email address'],
    });
  });
});
