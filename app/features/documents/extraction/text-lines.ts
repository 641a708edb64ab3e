// The document's text as the extractor reads it: lines, each with its cells (the
// columns a tab or a wide space separates), and the one way to ask whether a
// text opens with a label.

export interface Line {
  text: string;
  cells: string[];
}

export const splitCells = (text: string) => text.split(/\t+| {2,}/).map((c) => c.trim()).filter(Boolean);

/** Whether a text opens with a label ('Cessionario/committente (cliente)' opens with the customer's). */
export function startsWith(label: RegExp, text: string): boolean {
  const match = new RegExp(label.source, label.flags.replace('g', '')).exec(text);
  return match !== null && match.index === 0;
}

/** Labels by language: each entry a regex source ('total\\s+due'), so a language's words are read and changed in one place. */
export type LabelTable = Record<string, readonly string[]>;

/** The tables' entries as one alternation, in the tables' order (at one place in a text the first entry that fits wins). */
export const alternatives = (...tables: LabelTable[]) => tables.flatMap((table) => Object.values(table).flat()).join('|');
