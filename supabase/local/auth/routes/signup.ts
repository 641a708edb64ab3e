// POST /signup: creates the user (the project's triggers on auth.users run in
// the same transaction) and, unless e-mail confirmation is on, signs them in.
import { randomUUID } from 'node:crypto';
import type { BackendContext } from '../../context.ts';
import { isUniqueViolation } from '../db-errors.ts';
import { AuthError, json, optionalObject, optionalString, readBody, unprocessable } from '../http.ts';
import { newTokenHash, resolveRedirect, sendConfirmationMail } from '../mail.ts';
import { hashPassword } from '../passwords.ts';
import { readCodeChallenge, saveFlowState } from '../pkce.ts';
import { createSession, sessionJson } from '../sessions.ts';
import { checkPasswordStrength, validateEmail } from '../validate.ts';
import { findUserByEmail, insertUser, markSignedIn, updateUser, userJson } from '../users.ts';

const EMAIL_PROVIDER = { provider: 'email', providers: ['email'] };

/** GoTrue's sanitizeUser: what a repeated sign-up of a confirmed address answers. */
function obfuscatedUser(email: string, metadata: Record<string, unknown>): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { ...EMAIL_PROVIDER },
    user_metadata: metadata,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

export const alreadyRegistered = () => unprocessable('user_already_exists', 'User already registered');

export async function signup(request: Request, ctx: BackendContext): Promise<Response> {
  const body = await readBody(request);
  const password = optionalString(body, 'password') ?? '';
  if (password === '') throw unprocessable('validation_failed', 'Signup requires a valid password');
  const email = validateEmail(optionalString(body, 'email'));
  checkPasswordStrength(password);
  const metadata = optionalObject(body, 'data') ?? {};
  const codeChallenge = readCodeChallenge(body);
  const redirectTo = resolveRedirect(ctx, new URL(request.url).searchParams.get('redirect_to'));

  const existing = await findUserByEmail(ctx.db, email);
  if (existing) {
    if (!ctx.confirmEmail) throw alreadyRegistered();
    // As GoTrue with confirmations on: a registered address gets the same kind
    // of answer as a new one (a made-up, unconfirmed user, no error, no mail),
    // so sign-up does not tell who has an account.
    if (existing.email_confirmed_at) return json(obfuscatedUser(email, metadata));
    // GoTrue answers a repeated sign-up of an unconfirmed address by sending the link again.
    const token = newTokenHash(email);
    const user = await ctx.db.transaction(async (tx) => {
      await tx.query(`update auth.users set confirmation_token = $2, confirmation_sent_at = now() where id = $1`, [
        existing.id,
        token,
      ]);
      if (codeChallenge) await saveFlowState(tx, existing.id, codeChallenge, 'email/signup');
      return updateUser(tx, existing.id, {});
    });
    await sendConfirmationMail(ctx, email, { token, redirectTo });
    return json(await userJson(ctx.db, user));
  }

  const passwordHash = await hashPassword(password);
  const confirmationToken = ctx.confirmEmail ? newTokenHash(email) : undefined;
  let response: Record<string, unknown>;
  try {
    response = await ctx.db.transaction(async (tx) => {
      const user = await insertUser(tx, {
        email,
        passwordHash,
        userMetadata: metadata,
        appMetadata: EMAIL_PROVIDER,
        confirmed: !ctx.confirmEmail,
        confirmationToken,
      });
      if (ctx.confirmEmail) {
        if (codeChallenge) await saveFlowState(tx, user.id, codeChallenge, 'email/signup');
        return userJson(tx, user);
      }
      const { sessionId, refreshToken } = await createSession(tx, user.id, 'password', request.headers.get('user-agent'));
      return sessionJson(ctx, tx, await markSignedIn(tx, user.id), sessionId, refreshToken);
    });
  } catch (error) {
    if (error instanceof AuthError) throw error;
    // Two sign-ups racing for one address: the unique index decides.
    if (isUniqueViolation(error) && (await findUserByEmail(ctx.db, email))) throw alreadyRegistered();
    if (!ctx.quiet) console.error('[auth] sign-up failed in the database:', (error as Error).message);
    throw new AuthError(500, 'unexpected_failure', 'Database error saving new user');
  }
  if (confirmationToken) {
    await sendConfirmationMail(ctx, email, { token: confirmationToken, redirectTo });
  }
  return json(response);
}
