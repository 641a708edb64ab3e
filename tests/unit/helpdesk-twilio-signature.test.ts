// Twilio's request signature (decision 076) against the example Twilio's
// documentation gives (https://www.twilio.com/docs/usage/security), and the
// provider URL rule (app/lib/provider-fetch.ts).
import { describe, expect, it } from 'vitest';
import { isTwilioSigned, twilioSignature } from '../../app/features/helpdesk/channels/twilio.ts';
import { providerUrlProblem } from '../../app/lib/provider-fetch.ts';

const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS: [string, string][] = [
  ['CallSid', 'CA1234567890ABCDE'],
  ['Caller', '+12349013030'],
  ['Digits', '1234'],
  ['From', '+12349013030'],
  ['To', '+18005551212'],
];

describe("Twilio's signature", () => {
  it('matches the documented example, whatever order the parameters come in', async () => {
    expect(await twilioSignature('12345', URL_, PARAMS)).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
    expect(await twilioSignature('12345', URL_, [...PARAMS].reverse())).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
  });

  it('refuses another token, another URL, a changed parameter and a missing header', async () => {
    const signature = await twilioSignature('12345', URL_, PARAMS);
    expect(await isTwilioSigned('12345', URL_, PARAMS, signature)).toBe(true);
    expect(await isTwilioSigned('54321', URL_, PARAMS, signature)).toBe(false);
    expect(await isTwilioSigned('12345', 'https://mycompany.com/other', PARAMS, signature)).toBe(false);
    expect(await isTwilioSigned('12345', URL_, [...PARAMS.slice(1), ['CallSid', 'CA0']], signature)).toBe(false);
    expect(await isTwilioSigned('12345', URL_, PARAMS, null)).toBe(false);
    expect(await isTwilioSigned('', URL_, PARAMS, signature)).toBe(false);
  });
});

describe("a provider's URL", () => {
  it('must be https on a public host, unless the local stack allows it by name', () => {
    expect(providerUrlProblem('https://api.twilio.com', undefined)).toBeNull();
    expect(providerUrlProblem('http://api.twilio.com', undefined)).not.toBeNull();
    for (const url of ['https://127.0.0.1/x', 'https://10.0.0.2', 'https://169.254.169.254/latest', 'https://[::1]/', 'https://localhost/', 'https://metadata/', 'https://user:pw@api.example.com']) {
      expect(providerUrlProblem(url, undefined), url).not.toBeNull();
    }
    expect(providerUrlProblem('http://127.0.0.1:4010/v1', '127.0.0.1:4010')).toBeNull();
    expect(providerUrlProblem('http://127.0.0.1:4011/v1', '127.0.0.1:4010')).not.toBeNull();
    expect(providerUrlProblem('not a url', undefined)).not.toBeNull();
  });
});
