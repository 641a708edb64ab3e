// Which hosts an outside fetch or connection may reach (issue 30 for SMTP; issue 38 for tender feeds):
// never a private, loopback, link-local or multicast address, nor a local name, so an account's setting
// cannot point the Worker at its neighbours or the cloud's metadata service. The local stack allows its
// own listeners by name ("host:port,host:port" settings such as SMTP_ALLOW_HOSTS and FEED_ALLOW_HOSTS,
// set by npm start and the test harness); production sets nothing. A hostname is judged by its spelling
// only (a Worker cannot resolve DNS before connecting).

/** Parses an allow list (SMTP_ALLOW_HOSTS, FEED_ALLOW_HOSTS) into exact `host:port` pairs (lower case). */
export function allowedHosts(setting: string | undefined): Set<string> {
  return new Set(
    (setting ?? '')
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => /^[^\s:]+:\d+$/.test(entry)),
  );
}

export function ipv4Parts(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

export function isPrivateIpv4([a, b]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local (cloud metadata)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

/** Expands an IPv6 literal to eight numbers; null when it is not one. */
export function ipv6Groups(host: string): number[] | null {
  if (!host.includes(':') || !/^[0-9a-f:.]+$/i.test(host)) return null;
  let text = host;
  // An IPv4 tail (::ffff:127.0.0.1) becomes two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const parts = ipv4Parts(v4[1]);
    if (!parts) return null;
    text = text.slice(0, -v4[1].length) + `${((parts[0] << 8) | parts[1]).toString(16)}:${((parts[2] << 8) | parts[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail].map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN));
  return groups.some(Number.isNaN) ? null : groups;
}

export function isPrivateIpv6(g: number[]): boolean {
  const allZeroBefore = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (allZeroBefore(7) && (g[7] === 0 || g[7] === 1)) return true; // :: and ::1
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4 rule.
  if (allZeroBefore(5) && (g[5] === 0xffff || g[5] === 0)) {
    return isPrivateIpv4([g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255]);
  }
  return (
    (g[0] & 0xfe00) === 0xfc00 || // unique local
    (g[0] & 0xffc0) === 0xfe80 || // link-local
    (g[0] & 0xff00) === 0xff00 // multicast
  );
}

/** Whether a host (a name or an IP literal, brackets allowed) is private, loopback, link-local or a local name. */
export function isPrivateHost(hostInput: string): boolean {
  const host = hostInput.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  const v4 = ipv4Parts(host);
  if (v4) return isPrivateIpv4(v4);
  const v6 = ipv6Groups(host);
  if (v6) return isPrivateIpv6(v6);
  if (host.includes(':')) return true;
  // Other spellings of an IPv4 address (decimal 2130706433, octal 0177.0.0.1, hex 0x7f.1) are refused as the name of nothing public.
  if (/^(0x[0-9a-f]+|\d+)(\.(0x[0-9a-f]+|\d+)){0,3}$/i.test(host)) return true;
  return host === 'localhost' || !host.includes('.') || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal');
}
