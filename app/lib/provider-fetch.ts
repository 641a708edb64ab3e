// Calls to an account's outside provider (an SMS gateway, an AI endpoint;
// decision 076): the URL comes from an integration a person typed, so it must
// be https on a public host (the address checks of address-policy.ts), never the
// Worker's neighbours; every call has a hard deadline and a capped answer.
// The local stack and the tests allow their stand-in servers by name
// (PROVIDER_ALLOW_HOSTS, "host:port,host:port", plain http allowed for them);
// production sets nothing. Shared by the helpdesk (SMS, Suggest reply) and
// doc2data's AI provider (decision 082).
import { allowedHosts, isPrivateHost } from './address-policy.ts';
import { readCappedBytes } from './capped-stream.ts';

export class ProviderError extends Error {
  /** True when trying again cannot help (a refusal, a bad address); false for a timeout or a 5xx. */
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean) {
    super(message);
    this.name = 'ProviderError';
    this.permanent = permanent;
  }
}

/** Why a provider URL may not be called, or null when it may. */
export function providerUrlProblem(input: string, allowSetting: string | undefined): string | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return 'Enter a URL starting with https://';
  }
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (allowedHosts(allowSetting).has(`${host}:${port}`)) return null;
  if (url.protocol !== 'https:') return 'Enter a URL starting with https://';
  if (url.username || url.password) return 'Leave credentials out of the URL';
  if (isPrivateHost(host)) return 'Use the address of a public server';
  return null;
}

export interface ProviderAnswer {
  status: number;
  json: unknown;
}

const MAX_ANSWER_BYTES = 256 * 1024;

/** One POST to a provider under a deadline; the answer read as JSON, at most 256 KB. */
export async function postToProvider(
  url: string,
  init: { headers: Record<string, string>; body: string },
  options: { allowHosts: string | undefined; timeoutMs: number },
): Promise<ProviderAnswer> {
  const problem = providerUrlProblem(url, options.allowHosts);
  if (problem) throw new ProviderError(`The provider's URL is refused: ${problem}`, true);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  try {
    // redirect 'manual': a redirect could lead past the address check above.
    response = await fetch(url, { method: 'POST', headers: init.headers, body: init.body, signal: deadline, redirect: 'manual' });
  } catch (caught) {
    if (deadline.aborted) throw new ProviderError(`The provider did not answer within ${options.timeoutMs / 1000} s`, false);
    throw new ProviderError(`The provider could not be reached: ${caught instanceof Error ? caught.message : String(caught)}`, false);
  }
  let text = '';
  try {
    text = await readCappedText(response, deadline);
  } catch {
    throw new ProviderError(
      deadline.aborted ? `The provider did not answer within ${options.timeoutMs / 1000} s` : 'The provider answered too much',
      !deadline.aborted,
    );
  }
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, json };
}

async function readCappedText(response: Response, signal: AbortSignal): Promise<string> {
  const bytes = await readCappedBytes(response.body, MAX_ANSWER_BYTES, signal);
  if (signal.aborted) throw new Error('timed out');
  if (bytes === null) throw new Error('too large');
  return new TextDecoder().decode(bytes);
}
