// The app's statement of which config keys are credentials, held to the table
// the database's statement (private.is_secret_key) answers to as well.
import { describe, expect, it } from 'vitest';
import { isSecretKey } from '../../app/features/settings/integrations/secret-keys.ts';
import { SECRET_KEY_CASES } from '../support/secret-key-cases.ts';

describe('secret keys', () => {
  it.each(SECRET_KEY_CASES)('%s is a secret: %s', (key, secret) => {
    expect(isSecretKey(key)).toBe(secret);
  });
});
