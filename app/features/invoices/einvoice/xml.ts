// A small XML writer for the two e-invoice syntaxes: elements with
// attributes, text escaped, empty values left out (EN 16931 forbids empty
// elements), indented. Names carry their prefix; the root declares them.

export type Attributes = Record<string, string | null | undefined>;

export interface XmlElement {
  name: string;
  attributes: Attributes;
  children: (XmlElement | string)[];
}

/** An element written even when empty (<name/>): for the few a schema requires empty or not. */
export function emptyEl(name: string, attributes: Attributes = {}): XmlElement {
  return { name, attributes, children: [] };
}

/** A child: an element, text, or nothing (left out). */
export type XmlNode = XmlElement | string | null | undefined | false;

/** An element; null when it would be empty (no text, no child elements). */
export function el(name: string, attributes: Attributes | null, ...children: (XmlNode | XmlNode[])[]): XmlElement | null {
  const kept = children.flat().filter((child): child is XmlElement | string => child !== null && child !== undefined && child !== false && child !== '');
  if (kept.length === 0) return null;
  return { name, attributes: attributes ?? {}, children: kept };
}

// What XML 1.0 allows (tab, newline, carriage return and up); the rest is dropped.
// eslint-disable-next-line no-control-regex
const XML_CHARS = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text as XML: the five special characters escaped, characters XML 1.0 cannot hold dropped. */
export function escapeXml(value: string): string {
  return value
    .replace(XML_CHARS, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function write(node: XmlElement, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  const attributes = Object.entries(node.attributes)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXml(value!)}"`)
    .join('');
  if (node.children.length === 0) {
    out.push(`${pad}<${node.name}${attributes}/>`);
    return;
  }
  if (node.children.every((child) => typeof child === 'string')) {
    out.push(`${pad}<${node.name}${attributes}>${escapeXml(node.children.join(''))}</${node.name}>`);
    return;
  }
  out.push(`${pad}<${node.name}${attributes}>`);
  for (const child of node.children) {
    if (typeof child === 'string') out.push(`${pad}  ${escapeXml(child)}`);
    else write(child, depth + 1, out);
  }
  out.push(`${pad}</${node.name}>`);
}

/** The document: declaration and root, UTF-8, ending in a newline. */
export function serialize(root: XmlElement | null): string {
  if (!root) throw new Error('An XML document needs a root element');
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  write(root, 0, out);
  return `${out.join('\n')}\n`;
}
