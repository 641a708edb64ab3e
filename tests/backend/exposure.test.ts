// The development JWT secret is in this repository and the mail outbox shows
// every mail: the backend serves them on loopback only, unless given a secret
// of its own.
import { describe, expect, it } from 'vitest';
import { LocalSetupError } from '../../supabase/local/data-dir.ts';
import { startBackend } from '../../supabase/local/index.ts';

describe('the local backend on another address than loopback', () => {
  it('refuses to start with the public development secret, saying what to do', async () => {
    for (const host of ['0.0.0.0', '::']) {
      const started = startBackend({ host, port: 0, quiet: true, seed: false });
      await expect(started).rejects.toBeInstanceOf(LocalSetupError);
      await expect(started).rejects.toThrow(`Refusing to listen on ${host} with the public development JWT secret`);
      await expect(started).rejects.toThrow('Set JWT_SECRET to a long random string, or listen on 127.0.0.1.');
    }
  });

  it('starts there with a secret of its own, and on any loopback address with the default', async () => {
    for (const options of [{ host: '0.0.0.0', jwtSecret: 'a-long-random-secret-of-this-deployment-0123456789' }, { host: '127.0.0.1' }, { host: 'localhost' }]) {
      const backend = await startBackend({ ...options, port: 0, quiet: true, seed: false, skipMigrations: true });
      await backend.stop();
    }
  });
});
