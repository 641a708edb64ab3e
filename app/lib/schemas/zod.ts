// Every schema imports Zod from here, never from 'zod' (ESLint enforces it), so
// this runs before the first schema is built. Zod decides at schema
// construction whether it may compile parsers with `new Function`; in the
// browser that probe alone is a violation of our CSP (no 'unsafe-eval'), on
// every page with a form. Its plain parser is what the Workers runtime uses anyway.
import { z } from 'zod';

z.config({ jitless: true });

export { z };
