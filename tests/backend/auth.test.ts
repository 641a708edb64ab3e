// The GoTrue layer on PGlite, the local backend's default database.
import { openPgliteHarness } from './auth-harness.ts';
import { describeAuth } from './auth-suite.ts';

describeAuth('auth on PGlite', openPgliteHarness);
