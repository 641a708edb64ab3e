// PKCE (the flow @supabase/ssr uses): a sign-up stores its code challenge; the
// confirmation link then hands the app an auth code instead of tokens, which
// the app exchanges with its code verifier (grant_type=pkce).
import { createHash, randomUUID } from 'node:crypto';
import type { Queryable } from '../db.ts';
import { badRequest } from './http.ts';

export interface CodeChallenge {
  challenge: string;
  method: 's256' | 'plain';
}

export interface FlowStateRow {
  id: string;
  user_id: string | null;
  auth_code: string;
  code_challenge_method: string;
  code_challenge: string;
  authentication_method: string;
  auth_code_issued_at: Date | null;
  created_at: Date;
}

/** Auth codes are good for five minutes, as GoTrue's. */
const AUTH_CODE_LIFETIME_MS = 5 * 60 * 1000;

export function readCodeChallenge(body: Record<string, unknown>): CodeChallenge | undefined {
  const challenge = typeof body.code_challenge === 'string' ? body.code_challenge : '';
  const method = typeof body.code_challenge_method === 'string' ? body.code_challenge_method.toLowerCase() : '';
  if (!challenge && !method) return undefined;
  if (!challenge || !method) {
    throw badRequest('validation_failed', 'PKCE flow requires code_challenge_method and code_challenge');
  }
  if (method !== 's256' && method !== 'plain') {
    throw badRequest('validation_failed', `code challenge method not supported: ${method}`);
  }
  return { challenge, method };
}

export async function saveFlowState(
  q: Queryable,
  userId: string,
  code: CodeChallenge,
  authenticationMethod: string,
): Promise<void> {
  await q.query(
    `insert into auth.flow_state (user_id, auth_code, code_challenge_method, code_challenge, provider_type,
       authentication_method)
     values ($1, $2, $3, $4, 'email', $5)`,
    [userId, randomUUID(), code.method, code.challenge, authenticationMethod],
  );
}

/** The newest pending flow of this user, its auth code marked as issued now. */
export async function issueAuthCode(q: Queryable, userId: string, authenticationMethod: string): Promise<string | undefined> {
  const { rows } = await q.query<{ auth_code: string }>(
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
     where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                 order by created_at desc limit 1)
     returning auth_code`,
    [userId, authenticationMethod],
  );
  return rows[0]?.auth_code;
}

/** Only codes a confirmation link has handed out can be exchanged. */
export async function takeFlowState(q: Queryable, authCode: string): Promise<FlowStateRow | undefined> {
  const { rows } = await q.query<FlowStateRow>(
    `delete from auth.flow_state where auth_code = $1 and auth_code_issued_at is not null
     returning id, user_id, auth_code, code_challenge_method, code_challenge, authentication_method,
       auth_code_issued_at, created_at`,
    [authCode],
  );
  return rows[0];
}

export function isFlowStateExpired(flow: FlowStateRow): boolean {
  const issued = flow.auth_code_issued_at ?? flow.created_at;
  return issued.getTime() + AUTH_CODE_LIFETIME_MS < Date.now();
}

export function verifierMatches(flow: FlowStateRow, verifier: string): boolean {
  if (flow.code_challenge_method === 'plain') return verifier === flow.code_challenge;
  const hashed = createHash('sha256').update(verifier).digest('base64url');
  return hashed === flow.code_challenge;
}
