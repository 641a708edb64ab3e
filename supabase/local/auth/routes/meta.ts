// GET /settings, /health and the JWKS document: what clients ask before signing in.
import type { BackendContext } from '../../context.ts';
import { json } from '../http.ts';

const EXTERNAL_PROVIDERS = [
  'anonymous_users', 'apple', 'azure', 'bitbucket', 'discord', 'facebook', 'figma', 'fly', 'github', 'gitlab',
  'google', 'keycloak', 'kakao', 'linkedin', 'linkedin_oidc', 'notion', 'spotify', 'slack', 'slack_oidc',
  'workos', 'twitch', 'twitter', 'zoom', 'phone',
];

export function settings(ctx: BackendContext): Response {
  const external: Record<string, boolean> = Object.fromEntries(EXTERNAL_PROVIDERS.map((name) => [name, false]));
  external.email = true;
  return json({
    external,
    disable_signup: false,
    mailer_autoconfirm: !ctx.confirmEmail,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  });
}

export function health(): Response {
  return json({
    version: 'local',
    name: 'GoTrue',
    description: 'GoTrue is a user registration and authentication API',
  });
}

/** The signing key's public half, for clients that verify access tokens themselves (getClaims); none for an HS256 project. */
export function jwks(_request: Request, ctx: BackendContext): Response {
  // Clients and caches may keep it a while: a token with a kid they lack makes them fetch it again.
  return json({ keys: ctx.signingKey ? [ctx.signingKey.publicJwk] : [] }, 200, { 'cache-control': 'public, max-age=600' });
}
