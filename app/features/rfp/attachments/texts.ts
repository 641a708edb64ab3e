// What a bid's documents say (issue 38; decision 091). Node tests import this file, hence the relative import.
import { ACCEPTED_EXTENSIONS, MAX_UPLOAD_LABEL } from '../../documents/values.ts';

export const ATTACHMENT_TEXTS = {
  noFile: 'Please select a file to upload',
  empty: 'The file is empty',
  tooLarge: `The file is too large: the limit is ${MAX_UPLOAD_LABEL}`,
  unsupported: `Choose a file of type ${ACCEPTED_EXTENSIONS.join(', ')}`,
  mismatch: "The file's content does not match its extension",
  failed: 'Failed to attach the file',
  tooMany: 'A bid holds at most 50 files: remove one first',
  bidGone: 'RFP response not found',
} as const;
