// Knobs GoTrue reads from its environment. Tests shorten the reuse interval.
import type { BackendContext } from '../context.ts';

export interface AuthSettings {
  /**
   * Seconds a rotated refresh token may still be presented (GoTrue's
   * GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL, default 10), so a client that
   * lost the refresh response can recover; after it, reuse revokes the session.
   */
  refreshTokenReuseInterval: number;
}

const fromEnv = Number(process.env.GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL);

const settings: AuthSettings = {
  refreshTokenReuseInterval: Number.isFinite(fromEnv) && fromEnv >= 0 ? fromEnv : 10,
};

/** Process-wide override (tests); a context may also carry `authSettings`. */
export function configureAuth(overrides: Partial<AuthSettings>): void {
  Object.assign(settings, overrides);
}

export function authSettings(ctx: BackendContext): AuthSettings {
  const own = (ctx as BackendContext & { authSettings?: Partial<AuthSettings> }).authSettings;
  return { ...settings, ...own };
}
