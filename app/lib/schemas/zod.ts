// Every schema imports Zod from here, never from 'zod' (ESLint enforces it), so
// this runs before the first schema is built. Zod decides at schema
// construction whether it may compile parsers with `new Function`; in the
// browser that probe alone is a violation of our CSP (no 'unsafe-eval'), on
// every page with a form. Its plain parser is what the Workers runtime uses anyway.
import { z } from 'zod';

// What only an altered request can cause (no form of ours sends a file, or
// one field twice, where it expects one line of text) still gets words a
// person can read instead of Zod's "Invalid input: expected string, received
// File". A schema's own message, where it has one, comes first.
export const FILE_FOR_TEXT_MESSAGE = 'A file was sent where text was expected.';
export const FIELD_REPEATED_MESSAGE = 'This field was sent more than once.';

z.config({
  jitless: true,
  customError: (issue) => {
    if (issue.code !== 'invalid_type' || issue.expected === 'array') return undefined;
    if (typeof File !== 'undefined' && issue.input instanceof File) return FILE_FOR_TEXT_MESSAGE;
    if (Array.isArray(issue.input)) return FIELD_REPEATED_MESSAGE;
    return undefined;
  },
});

export { z };
