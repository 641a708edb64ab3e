// Where an account's SMTP integration may connect (issue 30, item 10): SMTP's
// own ports only, and never a private, loopback or link-local address, so the
// integration cannot be pointed at the Worker's neighbours or used to probe
// ports. The local stack allows its own listener by name (SMTP_ALLOW_HOSTS,
// "host:port,host:port", set by npm start and the test harness); production
// sets nothing. Checked when the integration is saved and again at send time.
// A hostname is checked by its spelling only (a Worker cannot resolve DNS
// before connecting); cloudflare:sockets itself does not reach private networks.

import { allowedHosts, ipv4Parts, ipv6Groups, isPrivateHost } from '../address-policy.ts';

export { allowedHosts };

export const SMTP_PORTS = [25, 465, 587, 2525] as const;

/** Why a host and port may not be used, or null when they may. */
export function smtpTargetProblem(hostInput: string, port: number, allow: Set<string>): string | null {
  const host = hostInput.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (allow.has(`${host}:${port}`)) return null;
  if (!(SMTP_PORTS as readonly number[]).includes(port)) return `Use an SMTP port: ${SMTP_PORTS.join(', ')}`;
  if (host.includes(':') && !ipv6Groups(host)) return 'Enter a host name or an IP address';
  // The one rule of address-policy.ts; a bare name other than localhost is answered by the spelling check below.
  if (isPrivateHost(host) && (host.includes('.') || host.includes(':') || host === 'localhost')) return 'Use the address of a public mail server';
  if (ipv4Parts(host) || ipv6Groups(host)) return null;
  // A hostname: letters, digits, hyphens and dots, at least one dot (a bare name resolves on the local network).
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/.test(host)) {
    return 'Enter a host name such as smtp.example.com';
  }
  return null;
}
