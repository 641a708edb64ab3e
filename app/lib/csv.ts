// CSV shared by the exports (the audit log, a compliance item's trail).

/**
 * One CSV field (RFC 4180 quoting). A text starting with =, +, - or @ is
 * prefixed with a quote so a spreadsheet never runs it as a formula.
 */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
