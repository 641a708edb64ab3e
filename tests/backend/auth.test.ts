// The GoTrue layer on PGlite, the local backend's default database.
import { openAuthHarness } from './auth-harness.ts';
import { describeAuth } from './auth-suite.ts';

describeAuth('auth on PGlite', () => openAuthHarness());
