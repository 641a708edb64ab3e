// Worker secrets and optional settings that wrangler.toml does not hold (so
// `wrangler types` cannot see them), added to the generated Env. Set with
// `wrangler secret put`.
interface __BaseEnv_Env {
  /** The jobs runner's key (decision 021). Never sent to a browser; no page reads it. */
  SUPABASE_SERVICE_ROLE_KEY?: string;
  /** The platform's HTTP mail API (Resend-style JSON), for accounts without an SMTP integration (decision 022). */
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  /** The platform's sender address. */
  MAIL_FROM?: string;
  /**
   * 'true' in production only: the Worker runs behind Cloudflare's edge, so
   * CF-Connecting-IP is Cloudflare's and may key the per-IP limits. Unset
   * (wrangler dev, npm start), a client-sent one is ignored (app/lib/client-ip.server.ts).
   */
  BEHIND_CLOUDFLARE?: string;
  /**
   * SMTP servers an integration may use outside the rules (an SMTP port, a public address), as
   * "host:port,host:port": the local stack's own listener (npm start, tests). Never set in production.
   */
  SMTP_ALLOW_HOSTS?: string;
  /**
   * Provider servers (SMS gateway, AI endpoint) an integration may call outside the rules (https, a
   * public address), as "host:port,host:port": the local stack's stand-ins (tests). Never set in production.
   */
  PROVIDER_ALLOW_HOSTS?: string;
  /**
   * Tender feeds (the RFP radar) fetched outside the address rules, as "host:port,host:port": the local
   * stack's own demo feed server (npm start, tests). Never set in production.
   */
  FEED_ALLOW_HOSTS?: string;
}
