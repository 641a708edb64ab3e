// The Worker layer: the built Worker (build/server) runs inside workerd, as in
// production; tests call it through `exports.default.fetch`. Build first.
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      main: './build/server/index.js',
      wrangler: { configPath: './build/server/wrangler.json' },
      miniflare: {
        bindings: {
          // Nothing listens on port 9: the landing page must fall back to its defaults.
          SUPABASE_URL: 'http://127.0.0.1:9',
          SESSION_SECRET: 'worker-test-session-secret',
        },
      },
    })),
  ],
  test: {
    name: 'worker',
    include: ['tests/worker/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
