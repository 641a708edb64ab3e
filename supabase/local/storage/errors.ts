// Storage's error answers, as supabase/storage renders them: the body is
// {statusCode, code, error, message} with the storage status as a string, and
// the HTTP status is 400 for every error below 500 (the server's
// userStatusCode), which storage-js reads as `status` beside `statusCode`.
import { isPgError } from '../rest/errors.ts';

export interface StorageErrorBody {
  statusCode: string;
  code: string;
  error: string;
  message: string;
}

export class StorageError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly error: string;
  /** The HTTP status sent: 400 unless the server failed (or a route says otherwise). */
  readonly httpStatus: number;

  constructor(statusCode: number, code: string, message: string, error?: string, httpStatus?: number) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.error = error ?? code;
    this.httpStatus = httpStatus ?? (statusCode >= 500 ? statusCode : 400);
  }

  body(): StorageErrorBody {
    return { statusCode: String(this.statusCode), code: this.code, error: this.error, message: this.message };
  }
}

export const ERRORS = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found', 'not_found'),
  /** What a renderer answers when the bytes are gone (the object row may still be there). */
  notFound: () => new StorageError(404, 'NoSuchKey', 'The resource was not found', 'Not found'),
  accessDenied: (message = 'Access denied', httpStatus?: number) => new StorageError(403, 'AccessDenied', message, 'Unauthorized', httpStatus),
  alreadyExists: () => new StorageError(409, 'ResourceAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketAlreadyExists: () => new StorageError(409, 'BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () => new StorageError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  invalidBucketName: () => new StorageError(400, 'InvalidBucketName', 'Bucket name invalid', 'Invalid Input'),
  invalidKey: (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`),
  invalidMimeType: (mimeType: string) => new StorageError(415, 'InvalidMimeType', `mime type ${mimeType} is not supported`, 'invalid_mime_type'),
  entityTooLarge: () => new StorageError(413, 'EntityTooLarge', 'The object exceeded the maximum allowed size', 'Payload too large'),
  invalidJwt: (message = 'Invalid JWT') => new StorageError(400, 'InvalidJWT', message),
  invalidSignature: (message = 'Invalid signature') => new StorageError(400, 'InvalidSignature', message),
  expiredSignature: () => new StorageError(400, 'ExpiredToken', 'The provided token has expired.'),
  invalidRequest: (message: string) => new StorageError(400, 'InvalidRequest', message),
  noContent: () => new StorageError(400, 'InvalidRequest', 'No content provided'),
  invalidFileSizeLimit: () => new StorageError(400, 'InvalidRequest', 'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B'),
  missingParameter: (name: string) => new StorageError(400, 'MissingParameter', `Missing Required Parameter ${name}`),
  invalidParameter: (name: string, message?: string) => new StorageError(400, 'InvalidParameter', message ?? `Invalid Parameter ${name}`),
  notFoundRoute: (method: string, path: string) => new StorageError(404, 'NotFound', `Route ${method}:${path} not found`, 'Not Found', 404),
  internal: (message = 'Internal server error') => new StorageError(500, 'InternalError', message),
};

/** Postgres's answer as Storage maps it (its DBError.fromDBError). */
export function fromPgError(error: unknown): StorageError {
  if (!isPgError(error)) throw error;
  switch (error.code) {
    case '42501':
      return ERRORS.accessDenied(error.message.includes('row-level security') ? 'new row violates row-level security policy' : error.message);
    case '23505':
      return ERRORS.alreadyExists();
    case '23503':
      return new StorageError(404, 'NoSuchBucket', 'The related resource does not exist', 'Related resource not found');
    case '22P02':
      return ERRORS.invalidParameter('value', error.message);
    case '57014':
      return new StorageError(544, 'DatabaseTimeout', 'The connection to the database timed out', 'DatabaseTimeout', 544);
    default:
      return new StorageError(500, 'DatabaseError', `database error, code: ${error.code}`);
  }
}

export function errorResponse(error: StorageError, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(error.body()), {
    status: error.httpStatus,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}
