// The links in auth mails (GET /verify, a browser redirect to the app) and
// their token-hash form (POST /verify, supabase-js verifyOtp({ token_hash })).
import type { BackendContext } from '../../context.ts';
import type { Queryable } from '../../db.ts';
import { forbidden, json, optionalString, readBody, redirect } from '../http.ts';
import { resolveRedirect } from '../mail.ts';
import { issueAuthCode } from '../pkce.ts';
import type { SignInMethod } from '../sessions.ts';
import {
  confirmEmail,
  findUserByConfirmationToken,
  findUserByEmail,
  findUserByEmailChangeToken,
  findUserByRecoveryToken,
  isBanned,
  updateUser,
  type UserRow,
} from '../users.ts';
import { signIn } from './token.ts';

/** GoTrue's MAILER_OTP_EXP default: links work for a day. */
const LINK_LIFETIME_MS = 24 * 3600 * 1000;

type LinkType = 'signup' | 'email_change' | 'recovery' | 'magiclink';

function linkType(type: string | null | undefined): LinkType | undefined {
  if (type === 'signup' || type === 'email') return 'signup';
  if (type === 'email_change' || type === 'recovery' || type === 'magiclink') return type;
  return undefined;
}

const sentRecently = (sentAt: Date | null) => sentAt !== null && sentAt.getTime() + LINK_LIFETIME_MS > Date.now();

/** GoTrue's answer to the first of the two links of a secure e-mail change. */
export const SINGLE_CONFIRMATION_MESSAGE = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';
const SINGLE_CONFIRMATION = Symbol('one of two e-mail change links followed');

/** Applies what the link confirms; undefined when the link is unknown, used or expired. */
async function consumeLink(
  tx: Queryable,
  type: LinkType,
  token: string,
): Promise<UserRow | typeof SINGLE_CONFIRMATION | undefined> {
  if (type === 'signup') {
    const user = await findUserByConfirmationToken(tx, token);
    if (!user || !sentRecently(user.confirmation_sent_at)) return undefined;
    return confirmEmail(tx, user.id);
  }
  // Magic links use the recovery token, as in GoTrue.
  if (type === 'recovery' || type === 'magiclink') {
    const user = await findUserByRecoveryToken(tx, token);
    if (!user || !sentRecently(user.recovery_sent_at)) return undefined;
    await tx.query(`update auth.users set recovery_token = null where id = $1`, [user.id]);
    // Following a recovery link also proves the address.
    return confirmEmail(tx, user.id);
  }
  const user = await findUserByEmailChangeToken(tx, token);
  if (!user || !user.email_change || !sentRecently(user.email_change_sent_at)) return undefined;
  const taken = await findUserByEmail(tx, user.email_change);
  if (taken && taken.id !== user.id) return undefined;
  const bothLinksMailed = user.email_change_token_current && user.email_change_token_new;
  if (bothLinksMailed && (user.email_change_confirm_status ?? 0) === 0) {
    // The first of the two links: remember it and wait for the other one (GoTrue's secure e-mail change).
    const followed = token === user.email_change_token_current ? 'email_change_token_current' : 'email_change_token_new';
    await tx.query(`update auth.users set ${followed} = null, email_change_confirm_status = 1 where id = $1`, [user.id]);
    return SINGLE_CONFIRMATION;
  }
  return updateUser(tx, user.id, { email: user.email_change, emailConfirmed: true, emailChange: null });
}

/** The flow_state.authentication_method a PKCE request for each link type records. */
const FLOW_METHOD: Record<LinkType, SignInMethod> = {
  signup: 'email/signup',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
};

const METHOD_FOR: Record<LinkType, SignInMethod> = {
  signup: 'otp',
  recovery: 'otp',
  magiclink: 'otp',
  email_change: 'email_change',
};

type Verified = { session: Record<string, unknown> } | { authCode: string } | { message: string } | undefined;

async function verify(
  request: Request,
  ctx: BackendContext,
  type: LinkType,
  token: string,
  viaBrowserLink: boolean,
): Promise<Verified> {
  return ctx.db.transaction(async (tx): Promise<Verified> => {
    const user = await consumeLink(tx, type, token);
    if (user === SINGLE_CONFIRMATION) return { message: SINGLE_CONFIRMATION_MESSAGE };
    if (!user || isBanned(user)) return undefined;
    if (viaBrowserLink) {
      // A PKCE client gets a code to exchange rather than tokens in the URL.
      const authCode = await issueAuthCode(tx, user.id, FLOW_METHOD[type]);
      if (authCode) return { authCode };
    }
    return { session: await signIn(request, ctx, user.id, METHOD_FOR[type], tx) };
  });
}

export async function verifyGet(request: Request, ctx: BackendContext): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const target = new URL(resolveRedirect(ctx, params.get('redirect_to')));
  const type = linkType(params.get('type'));
  const token = params.get('token');
  const verified = type && token ? await verify(request, ctx, type, token, true) : undefined;
  if (!verified) {
    target.hash = new URLSearchParams({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    }).toString();
    return redirect(target.toString());
  }
  if ('authCode' in verified) {
    target.searchParams.set('code', verified.authCode);
    return redirect(target.toString());
  }
  if ('message' in verified) {
    target.hash = new URLSearchParams({ message: verified.message }).toString();
    return redirect(target.toString());
  }
  const { session } = verified;
  target.hash = new URLSearchParams({
    access_token: String(session.access_token),
    expires_at: String(session.expires_at),
    expires_in: String(session.expires_in),
    refresh_token: String(session.refresh_token),
    token_type: 'bearer',
    type: params.get('type') ?? type!,
  }).toString();
  return redirect(target.toString());
}

export async function verifyPost(request: Request, ctx: BackendContext): Promise<Response> {
  const body = await readBody(request);
  const type = linkType(optionalString(body, 'type'));
  const tokenHash = optionalString(body, 'token_hash');
  const verified = type && tokenHash ? await verify(request, ctx, type, tokenHash, false) : undefined;
  if (!verified || 'authCode' in verified) throw forbidden('otp_expired', 'Token has expired or is invalid');
  if ('message' in verified) return json({ msg: verified.message, code: 200 });
  return json(verified.session);
}
