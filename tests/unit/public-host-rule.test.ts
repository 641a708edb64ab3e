// One rule for "a public host" (app/lib/address-policy.ts isPrivateHost): the SMTP settings, the providers
// (SMS, AI) and the tender feeds each refuse the same private, loopback, link-local and local names.
import { describe, expect, it } from 'vitest';
import { feedUrlProblem } from '../../app/features/rfp/feeds/fetch-feed.server.ts';
import { smtpTargetProblem } from '../../app/lib/mail/smtp-policy.ts';
import { providerUrlProblem } from '../../app/lib/provider-fetch.ts';

const PRIVATE = ['127.0.0.1', '10.1.2.3', '172.16.0.9', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '[::1]', '[fe80::1]', '[fd00::5]', '[::ffff:127.0.0.1]', 'localhost', 'mail.localhost', 'printer.local', 'db.internal'];
const PUBLIC = ['93.184.216.34', 'smtp.example.com', '[2606:4700::1111]'];

describe('one rule for a public host', () => {
  it('refuses every private address and local name everywhere an outside address is typed', () => {
    for (const host of PRIVATE) {
      expect(providerUrlProblem(`https://${host}/v1`, undefined), `provider ${host}`).toBe('Use the address of a public server');
      expect(feedUrlProblem(`https://${host}/feed.xml`, new Set()), `feed ${host}`).toBe('Use the address of a public feed');
      expect(smtpTargetProblem(host, 587, new Set()), `smtp ${host}`).toBe('Use the address of a public mail server');
    }
  });

  it('lets public hosts through in all three', () => {
    for (const host of PUBLIC) {
      expect(providerUrlProblem(`https://${host}/v1`, undefined), host).toBeNull();
      expect(feedUrlProblem(`https://${host}/feed.xml`, new Set()), host).toBeNull();
      expect(smtpTargetProblem(host, 587, new Set()), host).toBeNull();
    }
  });
});
