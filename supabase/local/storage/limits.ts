// Storage's input rules (supabase/storage src/storage/limits.ts and uploader.ts).
import { ERRORS } from './errors.ts';

/** Hosted Storage's global upload limit on the free plan; a bucket's own limit may only be lower. */
export const GLOBAL_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

// Only S3-safe characters: no control characters, no backslash, no non-ASCII.
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]*$/;
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]*$/;

export function mustBeValidKey(key: string | undefined): asserts key is string {
  if (!key || !VALID_OBJECT_KEY.test(key)) throw ERRORS.invalidKey(key ?? '');
}

export function mustBeValidBucketName(name: string | undefined): asserts name is string {
  if (!name || name.length > 100 || !VALID_BUCKET_NAME.test(name)) throw ERRORS.invalidBucketName();
}

/** '20MB', '30KB', '3B', or a number of bytes. */
export function parseFileSizeLimit(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw ERRORS.invalidFileSizeLimit();
  } else if (typeof value === 'string') {
    const match = /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value);
    if (!match) throw ERRORS.invalidFileSizeLimit();
    const amount = +parseFloat(match[1]).toPrecision(3);
    value = amount * { GB: 1e9, MB: 1e6, KB: 1000, B: 1 }[match[2].toUpperCase() as 'GB' | 'MB' | 'KB' | 'B'];
  } else throw ERRORS.invalidFileSizeLimit();
  if ((value as number) > GLOBAL_FILE_SIZE_LIMIT) throw ERRORS.entityTooLarge();
  return value as number;
}

export function validateAllowedMimeTypes(types: unknown): string[] | null {
  if (types === undefined || types === null) return null;
  if (!Array.isArray(types)) throw ERRORS.invalidParameter('allowed_mime_types');
  const list = types.filter((t): t is string => typeof t === 'string' && t !== '');
  for (const type of list) {
    if (type.length > 1000 || !/^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+)(;\s*charset=[a-zA-Z0-9-]+)?$|\*$/.test(type)) {
      throw ERRORS.invalidMimeType(type);
    }
  }
  return list;
}

/**
 * Storage compares type and subtype literally: `text/plain;charset=UTF-8`
 * does not match an allowed `text/plain` (as on hosted Storage).
 */
export function validateMimeType(mimeType: string, allowed: readonly string[]): void {
  const requested = mimeType.split('/');
  if (requested.length < 2) throw ERRORS.invalidMimeType(mimeType);
  const [type, sub] = requested;
  for (const entry of allowed) {
    const [allowedType, allowedSub] = entry.split('/');
    if (allowedType === type && (allowedSub === '*' || allowedSub === sub)) return;
  }
  throw ERRORS.invalidMimeType(mimeType);
}
