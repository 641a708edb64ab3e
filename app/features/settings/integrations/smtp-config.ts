// An email integration's config checked against where SMTP may connect
// (smtp-policy.ts), for the Integrations form: which field is wrong and why.
import { allowedHosts, smtpTargetProblem } from '~/lib/mail/smtp-policy';

const read = (config: Record<string, unknown>, ...keys: string[]): string => {
  for (const key of keys) {
    const value = config[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number') return String(value);
  }
  return '';
};

export function smtpTargetProblemOf(
  config: Record<string, unknown>,
  allowSetting: string | undefined,
): { field: 'smtp_host' | 'smtp_port'; message: string } | null {
  const host = read(config, 'smtp_host', 'host');
  // No host yet: nothing is connected to (the integration cannot send until it has one).
  if (!host) return null;
  const portText = read(config, 'smtp_port', 'port') || '587';
  const port = Number(portText);
  const problem = smtpTargetProblem(host, Number.isInteger(port) ? port : -1, allowedHosts(allowSetting));
  if (!problem) return null;
  return { field: problem.startsWith('Use an SMTP port') ? 'smtp_port' : 'smtp_host', message: problem };
}
