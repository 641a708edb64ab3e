// The GoTrue layer on a real PostgreSQL server (TEST_POSTGRES_URL), in a
// database of its own that is dropped afterwards.
import { describe } from 'vitest';
import { openAuthHarness } from './auth-harness.ts';
import { describeAuth } from './auth-suite.ts';

const serverUrl = process.env.TEST_POSTGRES_URL;

describe.skipIf(!serverUrl)('auth on PostgreSQL (set TEST_POSTGRES_URL to run)', () => {
  describeAuth('auth on PostgreSQL', () => openAuthHarness(serverUrl));
});
