// The audit package's plan, pure (decision 078): when a request builds it and
// when the jobs runner does (the inline limit, configurable by
// COMPLIANCE_PACKAGE_INLINE_BYTES so tests can use a few bytes), how the
// runner splits the evidence into zips under Storage's upload limit, and the
// mail with the signed links.

/** Built in the request up to this much evidence, unless COMPLIANCE_PACKAGE_INLINE_BYTES says otherwise (tests set a few bytes). */
export const DEFAULT_INLINE_PACKAGE_BYTES = 40 * 1024 * 1024;
/** Evidence per zip the runner stores: under Storage's 50 MB upload limit, and twice over in a Worker's 128 MB. */
export const PACKAGE_PART_BYTES = 24 * 1024 * 1024;
/** The part size, unless COMPLIANCE_PACKAGE_PART_BYTES says otherwise (tests set a few KB to see parts). */
export function packagePartBytes(env: { COMPLIANCE_PACKAGE_PART_BYTES?: string }): number {
  const configured = Number(env.COMPLIANCE_PACKAGE_PART_BYTES);
  return env.COMPLIANCE_PACKAGE_PART_BYTES && Number.isInteger(configured) && configured > 0 ? configured : PACKAGE_PART_BYTES;
}
/** How long the mailed links work. */
export const PACKAGE_LINK_SECONDS = 7 * 24 * 60 * 60;

export function inlinePackageLimit(env: { COMPLIANCE_PACKAGE_INLINE_BYTES?: string }): number {
  const configured = Number(env.COMPLIANCE_PACKAGE_INLINE_BYTES);
  return env.COMPLIANCE_PACKAGE_INLINE_BYTES && Number.isInteger(configured) && configured >= 0 ? configured : DEFAULT_INLINE_PACKAGE_BYTES;
}

/** The page loads at most 500 evidence rows: an item with that many goes to the runner, which reads them all. */
export function packageByMail(evidence: readonly { file_size: number }[], limit: number): boolean {
  return evidence.length >= 500 || evidence.reduce((sum, e) => sum + Number(e.file_size), 0) > limit;
}

/** Evidence grouped into parts of at most `limit` bytes each (a file larger than the limit is a part of its own). */
export function planParts<T extends { file_size: number }>(evidence: readonly T[], limit = PACKAGE_PART_BYTES): T[][] {
  const parts: T[][] = [[]];
  let size = 0;
  for (const e of evidence) {
    if (size + Number(e.file_size) > limit && parts[parts.length - 1].length > 0) {
      parts.push([]);
      size = 0;
    }
    parts[parts.length - 1].push(e);
    size += Number(e.file_size);
  }
  return parts;
}

export function packageMail(input: { to: string; title: string; links: string[]; expiresAt: string }) {
  const many = input.links.length > 1;
  return {
    to: input.to,
    subject: `Audit package ready: ${input.title}`,
    text: [
      'Hello,',
      '',
      `The audit package of the compliance requirement "${input.title}" is ready${many ? ` in ${input.links.length} parts` : ''}:`,
      '',
      ...input.links.map((link, i) => (many ? `Part ${i + 1}: ${link}` : link)),
      '',
      `The ${many ? 'links work' : 'link works'} until ${input.expiresAt.slice(0, 16).replace('T', ' ')} UTC. Each zip holds a manifest.json with the SHA-256 of every file in it.`,
    ].join('\n'),
  };
}
