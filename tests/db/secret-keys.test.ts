// The database's statement of which keys are credentials (private.is_secret_key),
// held to the table the app's statement answers to, and the audit log's
// redaction built on it: nested objects and lists included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_KEY_CASES } from '../support/secret-key-cases.ts';
import { startBackend, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => backend?.stop());

describe('secret keys in SQL', () => {
  it('answers every case of the shared table as the app does', async () => {
    const { rows } = await backend.db.query<{ key: string; secret: boolean }>(
      'select k as key, private.is_secret_key(k) as secret from unnest($1::text[]) k',
      [SECRET_KEY_CASES.map(([key]) => key)],
    );
    expect(rows.map((r) => [r.key, r.secret])).toEqual(SECRET_KEY_CASES.map(([key, secret]) => [key, secret]));
  });

  it('redacts credentials in nested objects and in lists, and leaves the rest', async () => {
    const values = {
      smtp_host: 'smtp.test',
      smtp_pass: 'p1',
      pass: 'p2',
      private_key: 'k',
      signing_key: 's',
      authorization: 'Bearer t',
      never_set_token: null,
      blank_password: '',
      stored: { api_key: true },
      nested: { deeper: { smtpPass: 'p3' }, port: 587 },
      servers: [{ host: 'a', password: 'p4' }, 'plain'],
    };
    const { rows } = await backend.db.query<{ redacted: unknown }>('select private.redact_secrets($1::jsonb) as redacted', [JSON.stringify(values)]);
    const R = '[redacted]';
    expect(rows[0].redacted).toEqual({
      smtp_host: 'smtp.test',
      smtp_pass: R,
      pass: R,
      private_key: R,
      signing_key: R,
      authorization: R,
      never_set_token: null,
      blank_password: '',
      stored: { api_key: true },
      nested: { deeper: { smtpPass: R }, port: 587 },
      servers: [{ host: 'a', password: R }, 'plain'],
    });
  });
});
