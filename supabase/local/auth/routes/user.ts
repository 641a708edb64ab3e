// GET /user and PUT /user: the signed-in user reads and changes their account.
import type { BackendContext } from '../../context.ts';
import { requireUser } from '../guards.ts';
import { json, optionalObject, optionalString, readBody, unprocessable } from '../http.ts';
import { newTokenHash, resolveRedirect, sendEmailChangeMail, verifyLink } from '../mail.ts';
import { hashPassword, passwordMatches } from '../passwords.ts';
import { readCodeChallenge, saveFlowState } from '../pkce.ts';
import { deleteUserSessions } from '../sessions.ts';
import { findUserByEmail, type UserChanges, updateUser, userJson } from '../users.ts';
import { checkPasswordStrength, validateEmail } from '../validate.ts';

export const emailTaken = () =>
  unprocessable('email_exists', 'A user with this email address has already been registered');

export async function getUser(request: Request, ctx: BackendContext): Promise<Response> {
  const { user } = await requireUser(request, ctx);
  return json(await userJson(ctx.db, user));
}

export async function putUser(request: Request, ctx: BackendContext): Promise<Response> {
  const { user, session } = await requireUser(request, ctx);
  const body = await readBody(request);
  const changes: UserChanges = {};

  const metadata = optionalObject(body, 'data');
  if (metadata) changes.userMetadata = metadata;

  const password = optionalString(body, 'password');
  if (password !== undefined) {
    checkPasswordStrength(password);
    if (await passwordMatches(password, user.encrypted_password)) {
      throw unprocessable('same_password', 'New password should be different from the old password.');
    }
    changes.passwordHash = await hashPassword(password);
  }

  let emailChangeLinks: { to: string; link: string }[] = [];
  const requestedEmail = optionalString(body, 'email');
  if (requestedEmail !== undefined && requestedEmail.toLowerCase() !== user.email?.toLowerCase()) {
    const email = validateEmail(requestedEmail);
    const holder = await findUserByEmail(ctx.db, email);
    if (holder && holder.id !== user.id) throw emailTaken();
    if (ctx.confirmEmail) {
      // GoTrue's secure e-mail change: the new address takes over only once
      // the links mailed to it and to the current address are both followed,
      // so a stolen session cannot move the account to an address of its own,
      // nor can anyone claim an address they cannot read.
      const token = newTokenHash(email);
      const currentToken = user.email ? newTokenHash(user.email) : undefined;
      changes.emailChange = { address: email, token, currentToken };
      const redirectTo = resolveRedirect(ctx, new URL(request.url).searchParams.get('redirect_to'));
      emailChangeLinks = [{ to: email, link: verifyLink(ctx, token, 'email_change', redirectTo) }];
      if (currentToken && user.email) {
        emailChangeLinks.push({ to: user.email, link: verifyLink(ctx, currentToken, 'email_change', redirectTo) });
      }
    } else {
      changes.email = email;
      changes.emailConfirmed = true;
    }
  }

  const codeChallenge = emailChangeLinks.length > 0 ? readCodeChallenge(body) : undefined;
  const updated = await ctx.db.transaction(async (tx) => {
    const row = await updateUser(tx, user.id, changes);
    if (codeChallenge) await saveFlowState(tx, user.id, codeChallenge, 'email_change');
    // As GoTrue: a new password signs out every other session of the user.
    if (changes.passwordHash) await deleteUserSessions(tx, user.id, session?.id);
    return row;
  });
  const newAddress = changes.emailChange?.address ?? '';
  for (const { to, link } of emailChangeLinks) await sendEmailChangeMail(ctx, user.email ?? '', newAddress, link, to);
  return json(await userJson(ctx.db, updated));
}
