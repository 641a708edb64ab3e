// The Worker layer: the built Worker (build/server) runs inside workerd, as in
// production, against a local backend started by the global setup; tests call
// it through `exports.default.fetch`. Build first (npm test does).
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

const buildDir = process.env.BUILD_DIR ?? 'build';

export default defineConfig({
  plugins: [
    cloudflareTest(async ({ inject }) => ({
      main: `./${buildDir}/server/index.js`,
      wrangler: { configPath: `./${buildDir}/server/wrangler.json` },
      miniflare: {
        bindings: {
          SUPABASE_URL: inject<string>('backendUrl'),
          SUPABASE_ANON_KEY: inject<string>('anonKey'),
          SERVICE_ROLE_KEY_FOR_TESTS: inject<string>('serviceRoleKey'),
          // The built Worker's module, from a test file, for tests that call its handler with another env.
          WORKER_MAIN_FOR_TESTS: `../../${buildDir}/server/index.js`,
          // The jobs runner's secret and the platform mail API (the backend's outbox), as npm start passes them.
          SUPABASE_SERVICE_ROLE_KEY: inject<string>('serviceRoleKey'),
          MAIL_API_URL: `${inject<string>('backendUrl')}/_mail`,
          // Links in mail (a quote's /q/<token>): the origin the tests' visitors use.
          SITE_URL: 'http://ops-hub.test',
          // As in production: CF-Connecting-IP is Cloudflare's, so the tests' visitors may each be a client of their own.
          BEHIND_CLOUDFLARE: 'true',
          SESSION_SECRET: 'worker-test-session-secret',
          AUDIT_SIGNING_SECRET: inject<string>('auditSigningSecret'),
          // A compliance item with more evidence than this is 'large': its audit package is built by the jobs runner and mailed (decision 078).
          COMPLIANCE_PACKAGE_INLINE_BYTES: '4096',
          // ...in zips of at most this much evidence each, one job each: two files of 3,000 bytes make two.
          COMPLIANCE_PACKAGE_PART_BYTES: '4000',
          // The loopback SMTP servers the tests send to, allowed by name as npm start allows its own listener (decision 039).
          SMTP_ALLOW_HOSTS: (['smtpPort', 'smtpClosePort', 'smtpBannerClosePort', 'smtpSilentPort', 'smtpDeadPort'] as const)
            .map((name) => `127.0.0.1:${inject<number>(name)}`)
            .join(','),
          // The outside providers' stand-ins, allowed by name as the SMTP servers are: Twilio and an AI API for the
          // helpdesk (decision 076), the AI provider of doc2data (tests/support/ai-stand-in.ts, decision 082).
          PROVIDER_ALLOW_HOSTS: (['providerPort', 'aiPort'] as const).map((name) => `127.0.0.1:${inject<number>(name)}`).join(','),
          // The demo tender feed the backend serves (/_demo/tenders.json), allowed by name as npm start allows it (decision 092).
          FEED_ALLOW_HOSTS: new URL(inject<string>('backendUrl')).host,
          // SMS/WhatsApp media are fetched under this deadline here (production: 20 s), so a hanging one ends soon (decision 089).
          MEDIA_TIMEOUT_MS: '1500',
        },
      },
    })),
  ],
  test: {
    name: 'worker',
    // supabase-js's ESM build uses extensionless relative imports, which the
    // workers pool's module loader cannot resolve: bundle it for the tests.
    // pdf-lib and unpdf (CommonJS inside) are bundled up front too: found
    // mid-run, the optimizer would reload and break the files already running
    // (@xmldom/xmldom, the e-invoice tests' XML reader, failed so in a full run).
    deps: { optimizer: { ssr: { enabled: true, include: ['@supabase/supabase-js', 'pdf-lib', 'unpdf', '@xmldom/xmldom'] } } },
    include: ['tests/worker/**/*.test.ts'],
    globalSetup: ['tests/worker/global-setup.ts'],
    // A runtime that stops answering fails the run, naming the file, rather than stalling it (see the watchdog).
    reporters: ['default', './tests/support/stall-watchdog.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
