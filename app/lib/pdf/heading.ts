// The top of a document's first page: who it is from (left), what it is and
// its facts (right), and who it is for (below).
import { type PDFImage, rgb } from 'pdf-lib';
import { drawLogo } from './logo.ts';
import { type Flow, LEFT, RIGHT } from './layout.ts';
import { drawInBox, drawLeft, drawRight, MUTED, truncated, wrap } from './text.ts';
import { accentColor, sellerAddressLines, sellerLegalLines } from '../seller.ts';
import type { PdfAccount, PdfContact, PdfSeller } from './types.ts';

export interface Heading {
  /** 'Quote' or 'Invoice'. */
  title: string;
  account: PdfAccount;
  seller?: PdfSeller | null;
  /** The seller's logo, embedded: drawn above the name. */
  logo?: PDFImage | null;
  /** Label and value, in order: 'Quote number', 'Q-2026-0007'. */
  facts: ReadonlyArray<readonly [string, string]>;
  /** 'Prepared for' or 'Bill to'. */
  recipientLabel: string;
  contact: PdfContact | null;
}

const FACTS_LEFT = 360;
const LEFT_COLUMN = FACTS_LEFT - LEFT - 20;

export function drawHeading(flow: Flow, heading: Heading): void {
  const { page, fonts } = flow;
  const top = flow.y;

  // From: the account's name (up to two lines) and its contact email.
  let left = top - 4;
  if (heading.logo) left -= drawLogo(flow, heading.logo, LEFT, top) + 20;
  const nameStyle = { font: fonts.bold, size: 16 };
  // Two lines at most: a longer name ends in an ellipsis.
  const seller = heading.seller ?? null;
  const nameLines = wrap(seller?.name || heading.account.name, LEFT_COLUMN, nameStyle);
  if (nameLines.length > 2) nameLines.splice(1, Infinity, truncated(nameLines.slice(1).join(' '), LEFT_COLUMN, nameStyle));
  for (const line of nameLines) {
    drawLeft(page, line, LEFT, left, nameStyle);
    left -= 20;
  }
  if (heading.account.contactEmail) {
    drawInBox(page, heading.account.contactEmail, LEFT, left, LEFT_COLUMN, { font: fonts.regular, size: 9.5, color: MUTED });
    left -= 14;
  }
  // The seller's address, then tax ID and registration: one line each, cut to the column.
  if (seller) {
    for (const line of [...sellerAddressLines(seller), ...sellerLegalLines(seller)]) {
      drawInBox(page, line, LEFT, left, LEFT_COLUMN, { font: fonts.regular, size: 9, color: MUTED });
      left -= 12;
    }
  }

  // What: the title and the document's facts, label left, value right.
  let right = top - 4;
  drawRight(page, heading.title, RIGHT, right, { font: fonts.bold, size: 22, color: hexColor(accentColor(seller)) });
  right -= 26;
  for (const [name, value] of heading.facts) {
    drawLeft(page, name, FACTS_LEFT, right, { font: fonts.regular, size: 9, color: MUTED });
    drawInBox(page, value, FACTS_LEFT + 75, right, RIGHT - FACTS_LEFT - 75, { font: fonts.bold, size: 9 }, 'right');
    right -= 14;
  }

  // For whom: name, company and email of the contact, each when known.
  left -= 18;
  drawLeft(page, heading.recipientLabel.toUpperCase(), LEFT, left, { font: fonts.bold, size: 8, color: MUTED });
  left -= 15;
  const contact = heading.contact;
  const lines = [contact?.name, contact?.company, contact?.email].filter((line): line is string => !!line && line.trim() !== '');
  if (lines.length === 0) lines.push('No contact');
  lines.forEach((line, index) => {
    const style = { font: index === 0 ? fonts.bold : fonts.regular, size: 10, color: index === 0 ? undefined : MUTED };
    drawInBox(page, line, LEFT, left, LEFT_COLUMN, style);
    left -= 14;
  });

  flow.y = Math.min(left, right) - 16;
}

/** #rrggbb as a pdf-lib colour; undefined (the ink) when there is none. */
function hexColor(hex: string | null) {
  if (!hex) return undefined;
  const value = Number.parseInt(hex.slice(1), 16);
  return rgb(((value >> 16) & 255) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255);
}
