// Mail links on request: POST /recover (password reset), POST /resend (the
// sign-up or e-mail change link again) and POST /admin/generate_link (the
// service role gets a link without a mail, e.g. for tests and invitations).
import type { BackendContext } from '../../context.ts';
import type { Queryable } from '../../db.ts';
import { isUniqueViolation } from '../db-errors.ts';
import { requireAdmin } from '../guards.ts';
import { AuthError, badRequest, json, notFound, optionalObject, optionalString, readBody } from '../http.ts';
import {
  newTokenHash,
  resolveRedirect,
  sendConfirmationMail,
  sendEmailChangeMail,
  sendRecoveryMail,
  type VerificationType,
  verifyLink,
} from '../mail.ts';
import { hashPassword } from '../passwords.ts';
import { readCodeChallenge, saveFlowState } from '../pkce.ts';
import { findUserByEmail, insertUser, type UserRow, userJson } from '../users.ts';
import { checkPasswordStrength, validateEmail } from '../validate.ts';
import { alreadyRegistered } from './signup.ts';

async function issueRecoveryToken(q: Queryable, user: UserRow): Promise<string> {
  const token = newTokenHash(user.email ?? '');
  await q.query(`update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1`, [user.id, token]);
  return token;
}

async function issueConfirmationToken(q: Queryable, user: UserRow): Promise<string> {
  const token = newTokenHash(user.email ?? '');
  await q.query(`update auth.users set confirmation_token = $2, confirmation_sent_at = now() where id = $1`, [
    user.id,
    token,
  ]);
  return token;
}

function redirectFor(request: Request, ctx: BackendContext, body: Record<string, unknown> = {}): string {
  const requested = new URL(request.url).searchParams.get('redirect_to') ?? optionalString(body, 'redirect_to');
  return resolveRedirect(ctx, requested);
}

/** Answers alike whether or not the address is known, so it reveals no accounts. */
export async function recover(request: Request, ctx: BackendContext): Promise<Response> {
  const body = await readBody(request);
  const email = validateEmail(optionalString(body, 'email'));
  const codeChallenge = readCodeChallenge(body);
  const user = await findUserByEmail(ctx.db, email);
  if (user?.email) {
    const token = await issueRecoveryToken(ctx.db, user);
    if (codeChallenge) await saveFlowState(ctx.db, user.id, codeChallenge, 'recovery');
    await sendRecoveryMail(ctx, user.email, verifyLink(ctx, token, 'recovery', redirectFor(request, ctx)));
  }
  return json({});
}

export async function resend(request: Request, ctx: BackendContext): Promise<Response> {
  const body = await readBody(request);
  const type = optionalString(body, 'type');
  if (type !== 'signup' && type !== 'email_change') {
    throw badRequest('validation_failed', 'Missing one of these types: signup, email_change, sms, phone_change');
  }
  const email = validateEmail(optionalString(body, 'email'));
  const codeChallenge = readCodeChallenge(body);
  const redirectTo = redirectFor(request, ctx);
  if (type === 'signup') {
    const user = await findUserByEmail(ctx.db, email);
    if (user && !user.email_confirmed_at) {
      const token = await issueConfirmationToken(ctx.db, user);
      if (codeChallenge) await saveFlowState(ctx.db, user.id, codeChallenge, 'email/signup');
      await sendConfirmationMail(ctx, email, { token, redirectTo });
    }
  } else {
    const { rows } = await ctx.db.query<{ id: string; email: string; email_change: string }>(
      `select id, email, email_change from auth.users where lower(email) = $1 and email_change is not null`,
      [email],
    );
    if (rows[0]) {
      const token = newTokenHash(rows[0].email_change);
      await ctx.db.query(
        `update auth.users set email_change_token_new = $2, email_change_sent_at = now() where id = $1`,
        [rows[0].id, token],
      );
      if (codeChallenge) await saveFlowState(ctx.db, rows[0].id, codeChallenge, 'email_change');
      await sendEmailChangeMail(ctx, rows[0].email, rows[0].email_change, verifyLink(ctx, token, 'email_change', redirectTo));
    }
  }
  return json({});
}

const GENERATE_LINK_TYPES = new Set(['signup', 'magiclink', 'recovery']);

/** GoTrue's generate_link answer: the user's fields with the link's properties beside them. */
export async function generateLink(request: Request, ctx: BackendContext): Promise<Response> {
  await requireAdmin(request, ctx);
  const body = await readBody(request);
  const type = optionalString(body, 'type') ?? '';
  if (!GENERATE_LINK_TYPES.has(type)) throw badRequest('validation_failed', 'Invalid email action link type requested');
  const email = validateEmail(optionalString(body, 'email'));
  const redirectTo = redirectFor(request, ctx, body);
  let user = await findUserByEmail(ctx.db, email);
  let token: string;

  if (type === 'signup') {
    if (user?.email_confirmed_at) throw alreadyRegistered();
    const password = optionalString(body, 'password');
    if (!password) throw badRequest('validation_failed', 'Password is required for signup links');
    checkPasswordStrength(password);
    const passwordHash = await hashPassword(password);
    try {
      ({ user, token } = await ctx.db.transaction(async (tx) => {
        const row =
          user ??
          (await insertUser(tx, {
            email,
            passwordHash,
            userMetadata: optionalObject(body, 'data') ?? {},
            appMetadata: { provider: 'email', providers: ['email'] },
            confirmed: false,
          }));
        return { user: row, token: await issueConfirmationToken(tx, row) };
      }));
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyRegistered();
      throw new AuthError(500, 'unexpected_failure', 'Database error saving new user');
    }
  } else {
    if (!user) throw notFound('user_not_found', 'User with this email not found');
    token = await issueRecoveryToken(ctx.db, user);
  }

  const refreshed = (await findUserByEmail(ctx.db, email))!;
  return json({
    ...(await userJson(ctx.db, refreshed)),
    action_link: verifyLink(ctx, token, type as VerificationType, redirectTo),
    // One-time codes are not offered locally: links carry the token instead.
    email_otp: '',
    hashed_token: token,
    redirect_to: redirectTo,
    verification_type: type,
  });
}
