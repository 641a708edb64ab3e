// Template-free field extraction: from a document's text (lines, columns
// separated by tabs or wide spaces) to the fields of fields.ts, each with a
// confidence. No layout is known in advance: values are found beside the
// words that label them in English, German, French, Spanish, Italian, Dutch,
// Portuguese or Polish, checked by
// their shape (a date that exists, an IBAN whose check digits hold), and
// where nothing labels them, guessed from position with a lower confidence.
import { isCurrency } from '../../../lib/currencies.ts';
import { amountsIn, bareDollar, currenciesIn, datesIn, dollarOf } from './amounts.ts';
import { isValidIban, type DocumentFields, type DocumentKind, type FieldKey } from './fields.ts';
import { refineReceipt } from './receipt.ts';
import { AMOUNT_DUE, NOT_SUBTOTAL, NOT_TAX_AMOUNT, NOT_TOTAL, PAGE_MARK, RATE, SUBTOTAL_LABEL, TAX_LABEL, TAX_TOTAL_LABEL, TOTAL_PLAIN, TOTAL_STRONG } from './amount-labels.ts';
import { cellNumber, DESCRIPTION_HEAD, findLineItems, namesItemColumns } from './line-items.ts';
import { splitCells, startsWith, type Line } from './text-lines.ts';
import { unlabelledVatIds } from './vat-ids.ts';
import { BUYER_WORDS, CUSTOMER_LABEL, LABEL_END, SELLER_WORDS, SUPPLIER_LABEL } from './party-labels.ts';
import { INVOICE_LABEL, ORDER_LABEL, ORDER_WORD, QUOTE_LABEL } from './reference-labels.ts';
import { DUE_LABEL, EARLY_DISCOUNT, ISSUE_LABEL, ISSUE_OTHER, ISSUE_PLAIN, LATE_PAYMENT, NET_DAYS, OTHER_INVOICE, PRINTED_AT, TERM_DAYS, TERMS_LABEL } from './date-labels.ts';
import { labelledItems } from './labelled-items.ts';
import { cents } from './cross-checks.ts';



/**
 * A row of labels over one row of values (a CSV or spreadsheet export: Supplier,
 * Invoice No, Total …) read as 'label: value' lines. A line-item table's header
 * is left alone: its rows are items, not the document's fields.
 */
function labelRows(lines: Line[]): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const head = lines[i].cells;
    const next = lines[i + 1]?.cells;
    const isHeader =
      head.length >= 3 &&
      next?.length === head.length &&
      head.every((cell) => /^[\p{L} .#/()-]+$/u.test(cell)) &&
      next.some((cell) => /\d/.test(cell)) &&
      !head.some((cell) => DESCRIPTION_HEAD.test(cell)) &&
      lines[i + 2] === undefined;
    if (!isHeader) {
      out.push(lines[i]);
      continue;
    }
    head.forEach((label, c) => out.push({ text: `${label}: ${next[c]}`, cells: [`${label}:`, next[c]] }));
    i += 1;
  }
  return out;
}

function toLines(text: string): Line[] {
  return labelRows(rawLines(text));
}

/**
 * The lines fields are looked for in: at most FIELD_LINES of them, each cut at
 * FIELD_LINE_CHARS. A field and its label sit on a short line; the patterns
 * below backtrack along a line, so a line of 100,000 digits and dots would
 * cost them seconds (issue 30: pasted text reaches here as it is).
 */
export const FIELD_LINES = 5_000;
export const FIELD_LINE_CHARS = 400;

function fieldText(text: string): string {
  return text
    .split('\n', FIELD_LINES)
    .map((raw) => composeAccents(raw.length > FIELD_LINE_CHARS ? raw.slice(0, FIELD_LINE_CHARS) : raw).replace(HYPHENS, '-'))
    .join('\n');
}

/** Unicode's hyphens and minus sign, which some PDFs print for '-' ('18‐08‐2026', 'IOPOLE‐jdz7fEbj4Va', '−10,00'). */
const HYPHENS = /[\u2010\u2011\u2012\u2212]/g;

/** TeX's fonts set an accent as its own glyph before its letter ('L´azaro', 'M ´onica'): the accented letter ('Lázaro'). */
const SPACING_ACCENTS: Record<string, string> = { '´': '\u0301', '¨': '\u0308', 'ˆ': '\u0302', '˜': '\u0303', '¸': '\u0327' };
function composeAccents(line: string): string {
  if (!/[´¨ˆ˜¸]/.test(line)) return line;
  return line.replace(/(\p{L})? ?([´¨ˆ˜¸])(\p{L})/gu, (_, before: string | undefined, accent: string, letter: string) => `${before ?? ''}${letter}${SPACING_ACCENTS[accent]}`.normalize('NFC'));
}

function rawLines(text: string): Line[] {
  return text
    .split('\n')
    .map((raw) => raw.replace(/[ \u00a0]+$/g, '').replace(/^\s+/, ''))
    .filter((raw) => raw.trim() !== '')
    .map((raw) => ({ text: raw.replace(/\t+/g, '  ').replace(/[ \u00a0]{3,}/g, '  '), cells: splitCells(raw) }));
}

/** What follows a label on its line, or the next line when the label ends its line (cells after it first). */
function afterLabel(lines: Line[], index: number, labelEnd: number, skipLabelled = false): { value: string; sameLine: boolean } | null {
  // A row of labels over a row of values ('TO:  FROM:' over 'Client, Inc.  Company, LLC'): the value is the cell below the label's.
  const cells = lines[index].cells;
  const nextCells = lines[index + 1]?.cells;
  if (cells.length >= 2 && cells.every((cell) => cell.endsWith(':')) && nextCells?.length === cells.length) {
    const column = lines[index].text.slice(0, labelEnd).split(/ {2,}/).length - 1;
    if (nextCells[column]) return { value: nextCells[column], sameLine: false };
  }
  const rest = lines[index].text.slice(labelEnd).replace(/^[\s:#.\-–—)]+/, '').replace(/^(?:no\.?|number|nr\.?|n[°º]|num\.?)(?=[\s:#.]|$)\s*[:#.]?\s*/i, '');
  if (rest.trim()) return { value: rest.trim(), sameLine: true };
  // A label in a later column that ends its line ('SELLER TRADE NAME  Adresse du Client'): the value is in that column of a line below.
  const column = lines[index].text.slice(0, labelEnd).split(/ {2,}/).length - 1;
  if (column > 0 && cells.length === column + 1) {
    // A party's block in that column may list its ids and an address heading before (or instead of) the name: its 'Name:' line names it.
    const block = lines.slice(index + 1, index + 6).filter((line) => line.cells.length > column);
    const named = skipLabelled ? block.map((line) => NAMED.exec(line.cells[column])?.[1]).find(Boolean) : undefined;
    if (named) return { value: named.trim(), sameLine: false };
    const under = block.slice(0, 3).find((line) => !(skipLabelled && (/:/.test(line.cells[column]) || BLOCK_DETAIL.test(line.cells[column]))));
    if (under) return { value: under.cells[column], sameLine: false };
  }
  // A value below its label; a party's block may first list its numbers ('Nummer : 549910'), so names step over up to three such lines.
  let below = index + 1;
  while (skipLabelled && below <= index + 3 && lines[below] && /\S\s*:\s*\S/.test(lines[below].text)) {
    // The block's own 'Name: Lieferant GmbH' line names the party.
    const named = NAMED.exec(lines[below].text);
    if (named) return { value: named[1].trim(), sameLine: false };
    below += 1;
  }
  const next = lines[below];
  return next ? { value: next.cells[0] ?? next.text.trim(), sameLine: false } : null;
}

/** A party block's own name line ('Nazwa: ABC Developex S.A.', 'Name: Lieferant GmbH'): the name. */
const NAME_LABEL = String.raw`(?:(?:name|nom|naam|nombre|nome|nazwa)(?:\s+(?:de\s+l['’]|du|de\s+la|des|of(?:\s+the)?|del?)\s*\p{L}+)?|firmenname|company\s+name|firma|company|denominazione|ragione\s+sociale|raz[óo]n\s+social)\s*:`;
const NAMED = new RegExp(`^${NAME_LABEL}\\s*(.+)$`, 'iu');
/** The label alone in its cell, the name in the next ('Nom de l'acheteur:  LES COACHS SOLIDAIRES'). */
const NAMED_ALONE = new RegExp(`^${NAME_LABEL}$`, 'iu');
/** A line of a party's block that is not its name: an id or contact after its label ('NIP: 9999999999', 'Tel.: 667'), or a bare heading ('Adres'). */
const BLOCK_DETAIL = /^(?:\p{L}[\p{L}./ -]{0,40}:\s*\S|(?:adres|address|adresse|anschrift|direcci[óo]n|indirizzo|endere[çc]o|dane\s+kontaktowe|contact(?:\s+details)?|kontakt)\s*:?$)/iu;

const SALUTATION = /^(?:herrn?|frau|mr|mrs|ms|monsieur|madame|mme|m|sr|sra|pan|pani|dhr|mevr|sig|sig\.ra)\.?$/i;
const IDENTIFIER_LINE = /^(?:GLN|GTIN|ILN|EAN|ID)?\s*[:#]?\s*\d{6,}\b/i;

/** The cell under a heading in a row of headings (no digits in them), in the next two lines of as many cells. */
function cellBelowHeading(lines: Line[], index: number, at: number): string | null {
  const head = lines[index];
  if (head.cells.length < 2 || head.cells.some((cell) => /\d/.test(cell))) return null;
  const column = head.text.slice(0, at).split(/ {2,}/).length - 1;
  const row = lines.slice(index + 1, index + 3).find((line) => line.cells.length === head.cells.length);
  return row?.cells[column] ?? null;
}

/** Whether a text opens with a party's label, the supplier's or the customer's. */
const partyHeading = (text: string) => startsWith(SUPPLIER_LABEL, text) || startsWith(CUSTOMER_LABEL, text);

/** Words that may come before a party's label in its cell: a heading's ('Dati del', 'Name of the', 'Données du'). */
const LEAD_WORD = '(?:dati|datos|dados|donn[ée]es|details?|informationen|information|zum|zur|name|nom|nome|nombre|naam|nazwa|angaben|address|adresse|of|the|del|della|de|du|des|do|da|dos|van|het|der|die|your|our|votre|notre|ihre?|unsere?)';
const LABEL_LEAD = new RegExp(`^${LEAD_WORD}(?:\\s+${LEAD_WORD})*$`, 'iu');

/** The first value a label points at, in the document's order. */
function findLabelled(
  lines: Line[],
  label: RegExp,
  accept: (value: string) => string | null,
  skipLabelled = false,
  seen?: (index: number) => void,
  below = 0,
): { value: string; index: number; sameLine: boolean } | null {
  for (let i = 0; i < lines.length; i += 1) {
    for (const match of lines[i].text.matchAll(new RegExp(label.source, label.flags.includes('g') ? label.flags : `${label.flags}g`))) {
      // A party's label opens its cell, or follows a heading's words ('Dati del cedente'): after other words it is part of a
      // name ('MY CLIENT') or a sentence ('Make checks payable to:'), unless they are the other party's label OCR ran into
      // it ('Sprzedawca Nabywca').
      const before = skipLabelled ? (lines[i].text.slice(0, match.index).split(/\t| {2,}/).at(-1) ?? '').trim() : '';
      if (before && !LABEL_LEAD.test(before) && !partyHeading(before)) continue;
      const after = afterLabel(lines, i, (match.index ?? 0) + match[0].length, skipLabelled);
      if (!after) continue;
      // A party's block whose first line below is a detail ('Codice fiscale: 0353…'): its name is further down.
      // Nor is the other party's heading set beside this one ('Cedente/prestatore (fornitore)  Cessionario/committente (cliente)').
      const otherHeading = skipLabelled && after.sameLine && partyHeading(after.value);
      let value = otherHeading || (skipLabelled && !after.sameLine && BLOCK_DETAIL.test(after.value)) ? null : accept(after.value);
      seen?.(i);
      // A party's label whose value below is a salutation ('Herrn') or an identifier line ('GLN 4304171000002'), or
      // whose line goes on with another heading ('Rechnungsempfänger  Kundennummer'): the name is on a line below.
      if (value === null && skipLabelled) {
        // The label's own column: a block set right of another ('Example, LLC  Bill To') goes on in that column.
        const column = lines[i].text.slice(0, match.index ?? 0).split(/ {2,}/).length - 1;
        for (let down = 1; value === null && down <= 4 && lines[i + down]; down += 1) {
          const cell = lines[i + down].cells[column] ?? '';
          // 'Nazwa: ABC Developex S.A.' in the block names it; 'NIP: 9999999999' and an 'Adres' heading are its details.
          let named = NAMED.exec(cell)?.[1] ?? (NAMED_ALONE.test(cell) ? lines[i + down].cells[column + 1] : undefined);
          // A person's block names them in two lines ('Nome: Mario' over 'Cognome: Bianchi').
          const surname = /^(?:cognome|apellidos?|nazwisko|sobrenome)\s*:\s*(.+)$/i.exec(lines[i + down + 1]?.cells[column] ?? '')?.[1];
          if (named && surname && /^(?:nome|nombre|imi[eę])\s*:/i.test(cell)) named = `${named} ${surname}`;
          if (named && accept(named)) return { value: accept(named) as string, index: i, sameLine: false };
          if (SALUTATION.test(cell) || IDENTIFIER_LINE.test(cell) || BLOCK_DETAIL.test(cell)) continue;
          // On the label's own line only a label that opens the line, followed by another heading, looks below.
          // (A heading followed by another field's label and value, 'Leverancier  Debiteurennummer: 97654', heads a block too.)
          if (after.sameLine && ((match.index ?? 0) > 1 || (/\d/.test(after.value) && !BLOCK_DETAIL.test(after.value)))) break;
          if (!after.sameLine && down === 1) continue;
          value = accept(cell);
          if (value) return { value, index: i, sameLine: false };
          break;
        }
      }
      // A row of headings over a row of values ('Invoice Number  Invoice Date  Due Date' over 'INV-7  01/03/2025  …'): the cell below.
      if (value === null && after.sameLine) {
        const under = cellBelowHeading(lines, i, match.index ?? 0);
        const read = under === null ? null : accept(under);
        if (read) return { value: read, index: i, sameLine: false };
      }
      // A column's heading with its value in a row below ('Due Date' over 'March 3, 2026'): at most `below` lines down, less sure.
      for (let down = 1; value === null && after.sameLine && down <= below && lines[i + down]; down += 1) {
        value = accept(lines[i + down].text);
        if (value) return { value, index: i, sameLine: false };
      }
      if (value) return { value, index: i, sameLine: after.sameLine };
    }
  }
  return null;
}

// ---- Reference numbers --------------------------------------------------------

/** An identifier as documents write one: letters, digits and separators, at least one digit. */
function identifier(value: string): string | null {
  // A series' letters, a space and its number of the year ('FPR 16/19', an Italian sectional numbering): one reference.
  const sectional = /^[A-Z]{2,5} \d{1,6}\/\d{2,4}(?!\S)/.exec(value)?.[0];
  if (sectional) return sectional;
  // A Portuguese document's number: its type's code, a space, its series and its number in the series ('FT A/1', 'NC C/1',
  // 'FR 2026D/3', 'FT AB2019/0035'), as certified invoicing software prints it (SAF-T PT).
  const saft = /^(?:FT|FS|FR|NC|ND|RC|RG|FA|VD|GT|GR|GA|GD|OR|PF|NE|CM|FO|OU)\s+[A-Z0-9][A-Z0-9._-]{0,30}\/\d{1,9}(?!\S)/.exec(value)?.[0];
  if (saft) return saft.replace(/\s+/, ' ');
  const token = /^[A-Z0-9][A-Z0-9\-/._]{1,39}/i.exec(value.replace(/^#\s*/, ''))?.[0]?.replace(/[.\-/_]+$/, '');
  if (!token || !/\d/.test(token) || (token.length < 3 && !/^\d{2}$/.test(token))) return null;
  // A blank form's placeholder ('0000') is no reference.
  if (/^[0\W_]+$/.test(token)) return null;
  // A date or a bare amount is not a reference.
  // A number that mixes a date's separators ('1/12-2025', the Polish numbering of the first invoice of December) is no date.
  const mixedSeparators = /^\d{1,4}\/\d{1,2}-\d{2,4}$/.test(token);
  if ((datesIn(token).length > 0 && !mixedSeparators) || /^\d{1,3}([,.]\d{3})*[,.]\d{2}$/.test(token)) return null;
  return token;
}

/**
 * A reference under its label where the label's own line has none: the label alone in the first cell of its line, over
 * the reference in that cell of the next line ('Invoice #:  +1 (234) 567-890' over 'INV-2024-001', the sender's phone
 * beside the label); or the label alone on its line over a row whose one reference stands in another cell ('Invoice #'
 * over 'ironpress  INV-2026-0042', the sender's name at the left). Less sure than a label beside its value.
 */
function referenceUnderLabel(lines: Line[], label: RegExp): string | null {
  const alone = new RegExp(`^(?:${label.source})\\s*[:#.]?\\s*$`, label.flags.replace('g', ''));
  for (let i = 0; i < Math.min(lines.length, 80) - 1; i += 1) {
    if (!alone.test(lines[i].cells[0] ?? '')) continue;
    const next = lines[i + 1].cells;
    const first = identifier(next[0] ?? '');
    if (first) return first;
    if (lines[i].cells.length > 1) continue;
    const others = next.slice(1).map(identifier).filter((id): id is string => id !== null);
    if (others.length === 1) return others[0];
  }
  return null;
}

const NOT_TOTAL_OR_DUE = new RegExp(`${NOT_TOTAL.source}|${AMOUNT_DUE.source}`, 'i');
/** An amount written with a lone 'e' after it ('248,00 e'). */
const EURO_AS_E = /\d[.,]\d{2}\s?e\b(?![.'’-]\p{L})/gu;

// ---- Amounts -------------------------------------------------------------------

// ---- Parties and identities ------------------------------------------------------

/** Where goods go: the customer's name when nothing else names one (a warehouse's may differ from the billed party's). */
const DELIVERY_LABEL = new RegExp(`(?<![\\p{L}-])(?:delivery\\s+address|deliver\\s+to|adresse\\s+de\\s+livraison|lieferadresse|lieferanschrift|afleveradres|indirizzo\\s+di\\s+consegna|direcci[óo]n\\s+de\\s+entrega|endere[çc]o\\s+de\\s+entrega|odbiorca)${LABEL_END}`, 'iu');
const STREET = /^\d{1,5}\s?[a-z]?,?\s+(?:rue|avenue|av\.|boulevard|bd|chemin|all[ée]e|place|impasse|route|via|viale|piazza|calle|avda\.?|rua|ul\.|straat|laan|weg)\b|^[\p{L}.-]+(?:stra(?:ß|ss)e|str\.|weg|gasse|allee|platz|straat|laan|street|road)\s+\d|^\d{1,5}\s+[\p{L} ]{2,40}\s(?:street|st\.|road|rd\.|avenue|ave\.?|lane|ln\.|drive|dr\.|way|boulevard|blvd\.?)$/iu;
/** A word of a company's legal form or kind ('GmbH', 'Ltd', 'Corp', 'SARL'). */
export const COMPANY_SUFFIX = /\b(?:ltd|limited|llc|l\.l\.c|inc|corp|corporation|co|company|gmbh|mbh|ag|a\.\s?g|kg|se|s\.?a\.?s?|sarl|s\.?r\.?l|b\.?v|n\.?v|plc|pty|oy|ab|as|aps|uab|lda|sp\.\s?z\s?o\.?o|s\.?l|partners|group|studio|services|solutions|consulting|trading)\b/i;
const TAX_ID_LABEL = /\b(?:vat\s*-?\s*(?:reg(?:istration)?\.?\s*)?(?:no\.?|number|nr\.?|id|#)|vat\s*:|tax\s*(?:id|no\.?|number|reg)|tin|ein|abn|gstin|gst\s*(?:no\.?|number|reg(?:istration)?)|ust\.?\s*-?\s*id\.?\s*-?\s*(?:nr)?\.?|ust\.?\s*-?\s*ident(?:ifikations)?\s*-?\s*(?:nr|nummer)\.?|n°\s*tva|tva\s*intracom\w*|tva\s*:|btw\s*-?\s*(?:nummer|nr\.?|id)|ondernemingsnummer|p\.?\s?iva|partita\s+iva|identificativo\s+fiscale(?:\s+ai\s+fini\s+iva)?|nip|nif|cif|cuit|rif|r\.i\.f\.|rfc|ruc|r\.u\.c\.|cnpj(?:\/cpf)?|contribuinte(?:\s+n\.?\s*[º°])?)(?=[\s:.#]|$)/i;
/** Labels of the document's own fields: a line they open is no party's name. */
const FIELD_LABELS = [INVOICE_LABEL, ORDER_LABEL, ISSUE_LABEL, DUE_LABEL, TAX_ID_LABEL, TOTAL_STRONG, SUBTOTAL_LABEL];
const TAX_ID_PATTERN = /^(?:(?:AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|CHE)[0-9A-Z]{8,12}|\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z])$/;
const EMAIL = /[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}/gi;
const PHONE_LABEL = /\b(?:tel(?:ephone)?|telefon|phone|ph|mobile|mob|fon|t[ée]l[ée]phone|tel[ée]fono|telefoon)\b\.?\s*[:.]?/i;
// Never cut inside a run of digits: an Italian number of eleven ('05543534343') was read as its first ten.
const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,5}\)[\s.-]?)?\d{2,5}(?:[\s.-]?\d{2,5}){1,4}(?!\d)/;
const IBAN = /\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b/g;

// ---- Kind ------------------------------------------------------------------------

/** Whether `text` names a kind of document ('Invoice', 'Nota Fiscal', 'Angebot'): a title, not a party. */
export const namesDocumentKind = (text: string) => KINDS.some(([, title]) => title.test(text));

const KINDS: [DocumentKind, RegExp][] = [
  ['purchase_order', /\bpurchase\s+order\b|^bestellung\b|\bbon\s+de\s+commande\b|\border\s+confirmation\b|\bordine\s+d'acquisto\b|\bzam[óo]wienie\b/i],
  ['quote', /\b(?:quote|quotation|estimate|offer|proposal|angebot|devis|presupuesto|cotizaci[óo]n)\b/i],
  ['receipt', /\b(?:receipt|sales\s+receipt|payment\s+received|quittung|kassenbon|re[çc]u|ticket\s+de\s+caisse|recibo)\b/i],
  ['invoice', /\b(?:invoice|tax\s+invoice|lasku|\p{L}*rechnung|gutschrift|facture|avoir|factura|fattura|factuur|faktura|fatura|bill(?!\s+(?:to|from)\b)|danfs?e|nota\s+fiscal|nota\s+de\s+(?:cr[ée]dito|d[ée]bito)|credit\s+note)\b/iu],
  ['contract', /\b(?:agreement|contract|vertrag|contrat|contrato|hereinafter|the\s+parties|terms\s+and\s+conditions)\b/i],
];

/**
 * The first eight lines as far as they can name the document's sender: no title, no statement's title, no customer's
 * label, no field's label before a colon. A title alone in its cell beside a name leaves the name ('Invoice  Your
 * Company Inc.': the title on the left, the sender's block on the right).
 */
function senderLines(lines: Line[]): { line: Line; at: number }[] {
  const titled = (text: string) => KINDS.some(([, re]) => re.test(text)) && text.length < 40;
  const out: { line: Line; at: number }[] = [];
  for (const [at, line] of lines.slice(0, 8).entries()) {
    const rest = line.cells.length === 2 && line.cells[0].length < 20 && titled(line.cells[0]) && !titled(line.cells[1]) ? line.cells[1] : null;
    const candidate = rest === null ? line : { text: rest, cells: [rest] };
    if (titled(candidate.text) || isStatementTitle(candidate) || CUSTOMER_LABEL.test(candidate.text) || /:/.test(candidate.cells[0] ?? '')) continue;
    out.push({ line: candidate, at });
  }
  return out;
}

/**
 * A bank's account statement by its title ('Kontoauszug 12/2014', 'Bank statement', 'Relevé de compte'). It is kind
 * 'other', and read as a statement: its customer is the account holder, its IBAN the account's own (the postings'
 * IBANs are other parties'), and its dates and amounts are postings', so none is guessed where no label names one.
 */
const STATEMENT_TITLE = /\b(?:kontoauszug|(?:bank|account)\s+statement|statement\s+of\s+account|relev[ée]\s+de\s+compte|extracto\s+(?:de\s+cuenta|bancario)|estratto\s+(?:di\s+)?conto|extrato\s+(?:banc[áa]rio|de\s+conta)|rekeningafschrift|wyci[ąa]g\s+(?:bankowy|z\s+rachunku))(?![\p{L}])/iu;
const ACCOUNT_HOLDER = new RegExp(`(?<![\\p{L}-])(?:kontoinhaber(?:in)?|account\\s+holder|titular(?:\\s+da\\s+conta|\\s+de\\s+la\\s+cuenta)?|titulaire(?:\\s+du\\s+compte)?|intestatario(?:\\s+(?:del\\s+)?conto)?|rekeninghouder|posiadacz(?:\\s+rachunku)?)${LABEL_END}`, 'iu');
/** The name on the account payments go to ('Kontoname: Tanja Tinder', 'Account name'): on an invoice, the supplier's. */
const PAYEE_ACCOUNT = new RegExp(`(?<![\\p{L}-])(?:kontoname|account\\s+name|beneficiary(?:\\s+name)?|nome\\s+do\\s+titular|b[ée]n[ée]ficiaire)${LABEL_END}`, 'iu');
const isStatementTitle = (line: Line) => STATEMENT_TITLE.test(line.text) && line.text.length < 60;

/**
 * Who placed the order a reference names: 'Encomenda ABC nº 12345', 'Ordine di acquisto di ABC #12988' (GnuCash's
 * printed reference), 'Purchase order of Acme No. 7'. That party is the buyer, so a block headed by its name is the
 * customer's, never the supplier's.
 */
const ORDERED_BY = new RegExp(`(?<!\\p{L})${ORDER_WORD}\\s+(?:(?:of|by|de|di|da|do|von|du|des|del)\\s+)?([^\\s:\\d#]+(?:\\s+[^\\s:\\d#]+){0,2}?)\\s*(?:n[°º]\\.?|#|no\\.|nr\\.)\\s*[A-Z]{0,5}-?\\d`, 'iu');
const NOT_A_BUYER = /^(?:ref(?:erence)?\.?|number|nummer|num[eé]ro|id|date|datum)$/i;

function orderedBy(lines: Line[]): string | null {
  for (const line of lines.slice(0, 30)) {
    const name = ORDERED_BY.exec(line.text)?.[1];
    if (name && !NOT_A_BUYER.test(name)) return name;
  }
  return null;
}

/** Whether a party's name begins with the buyer's ('ABC, Lda.' and 'Encomenda ABC nº 12345'). */
function isBuyer(name: string, buyer: string | null): boolean {
  const first = (value: string) => value.toLowerCase().split(/[\s,.]+/)[0];
  return buyer !== null && first(name) === first(buyer);
}

/** A statement's account holder: the cell under its heading in a row of headings ('Kontoinhaber  BIC  IBAN'), or after its label. */
function accountHolder(lines: Line[]): string | null {
  for (let i = 0; i < Math.min(lines.length, 40); i += 1) {
    const match = ACCOUNT_HOLDER.exec(lines[i].text);
    const below = match ? cellBelowHeading(lines, i, match.index) : null;
    const name = below === null ? null : cleanName(below);
    if (name) return name;
  }
  return findLabelled(lines, ACCOUNT_HOLDER, cleanName, true)?.value ?? null;
}

/** The reference alone on the line under the document's title alone on its own (in the first ten lines), when it has a digit. */
function numberUnderTitle(lines: Line[], kind: DocumentKind): string | null {
  const title = KINDS.find(([k]) => k === kind)?.[1];
  if (!title) return null;
  for (let i = 0; i < Math.min(lines.length - 1, 10); i += 1) {
    const own = lines[i].text.trim();
    if (lines[i].cells.length !== 1 || own.length > 30 || own.replace(title, '').trim() !== '') continue;
    const next = lines[i + 1];
    // A header set in two columns ('FACTURE' over 'Jane Doe  2026F02-001'): the right cell, when it is a reference of letters
    // and digits (digits alone may be a postcode or a phone number there).
    const right = next.cells.length === 2 ? next.cells[1].trim() : '';
    if (/\d/.test(right) && /[A-Z]/i.test(right) && identifier(right) === right) return right;
    if (next.cells.length !== 1) continue;
    // The number's own word before it ('Faktura' over 'Nr 1/2014'): the number.
    const number = next.text.trim().replace(/^(?:nr|no|n[°º]|#)\.?\s*(?=\S*\d)/i, '');
    // 'NE SERIES-A/123': a series and its number, one reference.
    const reference = /^[A-Z]{1,4}\s(?=[A-Z0-9-]+\/\d)/.test(number) ? number : identifier(number);
    if (reference && reference === number.split(/\s+(?:paid|pay[ée]e?|bezahlt)$/i)[0]) return reference;
  }
  return null;
}

function guessKind(lines: Line[]): { value: DocumentKind; confidence: number } {
  // A title on the first lines decides; otherwise the words that come up most.
  for (const line of lines.slice(0, 6)) {
    for (const [kind, re] of KINDS) {
      if (re.test(line.text) && line.text.length < 60) return { value: kind, confidence: 0.9 };
    }
    if (isStatementTitle(line)) return { value: 'other', confidence: 0.9 };
  }
  // Below two address blocks a title still opens its own short line ('Invoice UZH-ZI-5'), where a word in a sentence does not.
  for (const line of lines.slice(6, 16)) {
    const title = KINDS.find(([, re]) => line.text.length < 40 && re.exec(line.text)?.index === 0);
    if (title) return { value: title[0], confidence: 0.8 };
  }
  const text = lines.map((l) => l.text).join('\n');
  let best: { value: DocumentKind; count: number } = { value: 'other', count: 0 };
  for (const [kind, re] of KINDS) {
    const count = text.match(new RegExp(re.source, `${re.flags}g`))?.length ?? 0;
    if (count > best.count) best = { value: kind, count };
  }
  if (best.count > 0) return { value: best.value, confidence: 0.6 };
  // No title word, but an invoice number's label ('Rechnungsnummer: 2014-03'): an invoice.
  return lines.some((line) => INVOICE_LABEL.test(line.text)) ? { value: 'invoice', confidence: 0.6 } : { value: 'other', confidence: 0.3 };
}

/** The days of the payment terms a document states, if any (1 to 180). */
function termDays(lines: Line[]): number | null {
  for (const { text } of lines) {
    // 'Bei Zahlung innerhalb 14 Tagen 2% Skonto': an early-payment discount's days, not the terms.
    if (EARLY_DISCOUNT.test(text) || LATE_PAYMENT.test(text)) continue;
    const match = NET_DAYS.exec(text) ?? (TERMS_LABEL.test(text) ? TERM_DAYS.exec(text) : null);
    const days = match ? Number(match[1]) : 0;
    if (days >= 1 && days <= 180) return days;
  }
  return null;
}

function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

// ---- The extractor ---------------------------------------------------------------------

export interface Extraction {
  fields: DocumentFields;
  /** How long it took, for the bench. */
  ms?: number;
}

/** A tax line of one rate on one base: '19,00% auf 804,35 €', '20% on 100.00', 'TVA 5,5 % sur 40,00'. */
const PER_RATE = /\d\s?%\s*(?:auf|on|sur|su|op|sobre|von|od)\s+[€$£]?\s?\d/i;

function lastAmount(line: Line): string | null {
  const amounts = amountsIn(line.text.replace(PAGE_MARK, ' '));
  return amounts.length > 0 ? amounts[amounts.length - 1] : null;
}

/** An amount on the labelled line, else the first one on the next line. */
function amountNear(lines: Line[], index: number): string | null {
  return lastAmount(lines[index]) ?? (lines[index + 1] && datesIn(lines[index + 1].text).length === 0 ? amountsIn(lines[index + 1].text)[0] ?? null : null);
}

/** A rate table's row: base, rate, amount ('255,00 €  6,0%  15,30 €'); the amount after the rate, or null. */
function amountAfterRate(line: Line | undefined): string | null {
  const rated = line ? /^\s*[€$£]?\s?[\d.,\s]+[€$£]?\s+\d+(?:[.,]\d+)?\s?%\s+(.+)$/.exec(line.text) : null;
  return rated ? amountsIn(rated[1])[0] ?? null : null;
}

/**
 * A row of headings over rows of amounts ('TOTAL HT  TOTAL TVA  TOTAL TTC' over
 * '100,00  10,00  110,00'; 'Nettobetrag  MwSt-Betrag  Endbetrag' over a row per
 * rate and a row of sums): the cell under the heading that matched, in the last
 * row of as many cells within three lines; 'per rate' when those rows are one
 * rate's each with no row of sums below them (the heading names no single amount).
 */
function amountBelowHeading(lines: Line[], index: number, at: number): string | 'per rate' | null {
  const head = lines[index];
  const column = head.text.slice(0, at).split(/ {2,}/).length - 1;
  // A row of headings has no amounts, up to the heading after this one at least: the row may end with another label's
  // amount ('Stawka VAT  Wartość netto  Kwota VAT  Wartość brutto  Zapłacono  0,00 zł').
  if (head.cells.length < 2 || head.cells.slice(0, column + 2).some((cell) => /\d{2}/.test(cell))) return null;
  let value: string | null = null;
  let rows = 0;
  let lastRated = false;
  for (const line of lines.slice(index + 1, index + 4)) {
    if (line.cells.length !== head.cells.length || line.cells.filter((cell) => cellNumber(cell) !== null).length * 2 < line.cells.length) continue;
    const read = cellNumber(line.cells[column] ?? '');
    if (read === null) continue;
    value = read;
    rows += 1;
    lastRated = /\d\s?%/.test(line.cells[0] ?? '');
  }
  // Rows of one rate each and no row summing them ('MwSt  Netto  Steuer  Brutto' over 'A 20%  3,17  0,63  3,80' and
  // 'B 10%  13,82  1,38  15,20'): the heading labels each rate's amount, not the document's.
  return rows >= 2 && lastRated ? 'per rate' : value;
}

/** A line-item table's header ('Description  Qty  Price  Tax  Total') labels its rows' cells, not the document's totals. */
const isItemsHeader = (line: Line) => namesItemColumns(line.text) && line.cells.length >= 3;

function findAmount(lines: Line[], label: RegExp, exclude?: RegExp, fromEnd = true): { value: string; index: number } | null {
  const order = lines.map((_, i) => i);
  if (fromEnd) order.reverse();
  let rateRow: { value: string; index: number } | null = null;
  for (const i of order) {
    const line = lines[i];
    const match = label.exec(line.text);
    // (A header set on two lines, 'Wart.' over 'brutto', is the table's, both lines.)
    if (!match || isItemsHeader(line) || (i > 0 && isItemsHeader(lines[i - 1]) && !/\d/.test(line.text))) continue;
    // In a row of headings ('Kwota netto  Kwota podatku  Kwota brutto') only the matched heading's own cell can exclude it.
    const cell = line.text.slice(0, match.index + match[0].length).split(/ {2,}/).length - 1;
    const below = amountBelowHeading(lines, i, match.index);
    if (below === 'per rate') continue;
    if (below !== null && !(exclude && exclude.test(line.cells[cell] ?? line.text))) return { value: below, index: i };
    if (exclude && exclude.test(line.text)) continue;
    // A label inside a sentence ('überweisen Sie den Rechnungsbetrag ohne Abzüge') labels no amount on the next line.
    const endsLine = /^[\s:.]*(?:\(?(?:[A-Z]{3}|[€$£₹])\)?)?[\s:]*$/.test(line.text.slice(match.index + match[0].length));
    // A bare label over one rate's row ('VAT' over '255,00 €  6,0%  15,30 €') is one rate of a breakdown: its amount only if no line labels one.
    const afterRate = endsLine && lastAmount(line) === null ? amountAfterRate(lines[i + 1]) : null;
    if (afterRate !== null) {
      rateRow ??= { value: afterRate, index: i };
      continue;
    }
    const value = endsLine ? amountNear(lines, i) : lastAmount(line);
    if (value !== null) return { value, index: i };
  }
  return rateRow;
}


/**
 * Of the tax ids a document prints, the supplier's: one its label calls the
 * seller's; else one nearest the bank details (an IBAN within three lines: the
 * party that is paid); else the first that no buyer's label claims. Sure only
 * when there was one id, or a rule chose it.
 */
function supplierTaxId(lines: Line[], candidates: { value: string; index: number }[]): { value: string; sure: boolean } | null {
  // A document prints a few tax ids and a few IBANs; past twenty of either, the rest are not looked at (decision 040's bounded work).
  const all = [...new Map(candidates.map((c) => [c.value.replace(/[\s.-]/g, '').toUpperCase(), c])).values()].slice(0, 20);
  // A VAT id in its country's format before a national tax number ('USt-IdNr. DE…' before 'St.-Nr. 201/113/40209'): the one an invoice is checked by.
  const vat = all.filter((c) => TAX_ID_PATTERN.test(c.value.replace(/[\s.-]/g, '').toUpperCase()));
  const distinct = vat.length > 0 ? vat : all;
  if (distinct.length === 0) return null;
  if (distinct.length === 1) return { value: distinct[0].value, sure: !BUYER_WORDS.test(lines[distinct[0].index]?.text ?? '') };
  const seller = distinct.find((c) => SELLER_WORDS.test(lines[c.index]?.text ?? '') && !BUYER_WORDS.test(lines[c.index]?.text ?? ''));
  if (seller) return { value: seller.value, sure: true };
  const ibanLines = lines.flatMap((line, i) => ([...line.text.toUpperCase().matchAll(IBAN)].some(([m]) => isValidIban(m)) ? [i] : [])).slice(0, 20);
  const distance = (c: { index: number }) => Math.min(Infinity, ...ibanLines.map((i) => Math.abs(i - c.index)));
  const byBank = [...distinct].sort((x, y) => distance(x) - distance(y));
  if (distance(byBank[0]) <= 3 && distance(byBank[0]) < distance(byBank[1])) return { value: byBank[0].value, sure: true };
  const notBuyer = distinct.find((c) => !BUYER_WORDS.test(lines[c.index]?.text ?? ''));
  return { value: (notBuyer ?? distinct[0]).value, sure: false };
}

/**
 * The sender's line a letter prints above the address window: a name, a
 * street and a town run together with separators ('Acme GmbH | Europa-Allee
 * 1980 | 60486 Frankfurt', 'Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen'),
 * on the first ten lines.
 */
function senderLine(lines: Line[]): { name: string; index: number } | null {
  for (let i = 0; i < Math.min(lines.length, 10); i += 1) {
    const first = lines[i].cells[0] ?? '';
    const parts = first.split(/\s+[|•●·]\s+|\s+[-–]\s+(?=\d)/);
    if (parts.length < 3 || !/\b\d{4,5}\b/.test(first) || /@|https?:/.test(parts[0])) continue;
    const name = cleanName(parts[0]);
    if (name && /\p{L}{2}/u.test(name)) return { name, index: i };
  }
  return null;
}

/** The first name in the address window below the sender's line: salutations, labelled lines, titles and contact lines stepped over. */
function windowName(lines: Line[], senderIndex: number): string | null {
  for (const line of lines.slice(senderIndex + 1, senderIndex + 4)) {
    const first = line.cells[0] ?? '';
    if (/^(?:herrn?|frau|mr|mrs|ms|mme|m\.)\.?$/i.test(first) || /:/.test(first) || KINDS.some(([, re]) => re.test(first)) || !/^\p{L}/u.test(first)) continue;
    if (PHONE_LABEL.test(first) || /\b(?:fax|e-?mail|www)\b/i.test(first)) continue;
    // A block's heading ('Adresse de livraison') is not the addressee: the name follows it.
    if (DELIVERY_LABEL.test(first) || CUSTOMER_LABEL.test(first) || SUPPLIER_LABEL.test(first)) continue;
    const name = cleanName(first);
    if (name) return name;
  }
  return null;
}

/** A currency's code alone after its label ('Moneda: PEN'): the code, when it is on the product's list. */
function codeAlone(value: string): string | null {
  const code = /^([A-Za-z]{3})\b/.exec(value.trim())?.[1]?.toUpperCase();
  return code && isCurrency(code) ? code : null;
}

/**
 * Subtotal + tax = total decides how sure the three amounts are: when they add
 * up, each is what its label says (0.95); when they do not, one of them is
 * another amount, and none is given as sure (the review screen asks about
 * them). A total that nothing checks is not given as sure either: on the real
 * corpus a lone total's label was right too seldom for 0.8 (decision 056).
 */
function crossCheckAmounts(fields: DocumentFields): void {
  const { total, subtotal, tax_amount: tax } = fields;
  if (!total) {
    if (fields.subtotal) fields.subtotal.confidence = Math.min(fields.subtotal.confidence, 0.7);
    return;
  }
  if (subtotal && tax) {
    const adds = cents(subtotal.value) + cents(tax.value) === cents(total.value);
    for (const field of [total, subtotal, tax]) field.confidence = adds ? 0.95 : Math.min(field.confidence, 0.6);
  } else if (subtotal && cents(subtotal.value) > cents(total.value)) {
    // A subtotal above the total is one of them misread.
    total.confidence = Math.min(total.confidence, 0.6);
    subtotal.confidence = Math.min(subtotal.confidence, 0.5);
  } else {
    total.confidence = Math.min(total.confidence, 0.75);
    // A net amount that no tax and total confirm is as unsure as a lone total (issue 34: two read from a line's total).
    if (subtotal) subtotal.confidence = Math.min(subtotal.confidence, 0.7);
  }
}

/** Every amount a label points at (on its line, or on the next when the label ends its line or heads a column), at most twenty. */
function labelledAmounts(lines: Line[], label: RegExp, exclude?: RegExp): number[] {
  const out = new Set<number>();
  for (let i = 0; i < lines.length && out.size < 20; i += 1) {
    if (!label.test(lines[i].text) || exclude?.test(lines[i].text)) continue;
    for (const a of [...amountsIn(lines[i].text), ...(lines[i + 1] ? amountsIn(lines[i + 1].text) : [])]) out.add(cents(a));
  }
  return [...out].slice(0, 20);
}

/** A tax a net could carry: above zero and at most 30% of it (in cents), the bound the three cross-checks below share. */
const plausibleTax = (net: number, tax: number) => tax > 0 && tax <= net * 0.3;

/**
 * When the labelled subtotal, tax and total do not add up (or one is
 * missing), the cross-check decides between candidates: of the amounts that
 * net, tax and total labels point at, a net and a tax at a plausible rate
 * (above 0, at most 30% of the net) whose sum is a total's amount. The total
 * already found is kept when such a triple includes it; else the largest
 * total that one does. At most 20 candidates each: 400 sums (decision 040).
 */
function decideAmounts(lines: Line[], fields: DocumentFields): void {
  const centsOf = (value: string | undefined) => (value === undefined ? null : cents(value));
  const [total, subtotal, tax] = [centsOf(fields.total?.value), centsOf(fields.subtotal?.value), centsOf(fields.tax_amount?.value)];
  if (total !== null && subtotal !== null && tax !== null && subtotal + tax === total) return;
  const totals = new Set(labelledAmounts(lines, new RegExp(`${TOTAL_STRONG.source}|${TOTAL_PLAIN.source}`, 'iu'), NOT_TOTAL));
  const nets = labelledAmounts(lines, SUBTOTAL_LABEL, NOT_SUBTOTAL);
  const taxes = labelledAmounts(lines, new RegExp(`${TAX_TOTAL_LABEL.source}|${TAX_LABEL.source}`, 'i'), NOT_TAX_AMOUNT);
  let best: [number, number, number] | null = null;
  for (const net of nets) {
    for (const t of taxes) {
      if (!plausibleTax(net, t) || !totals.has(net + t)) continue;
      if (best === null || net + t === total || (best[2] !== total && net + t > best[2])) best = [net, t, net + t];
    }
  }
  if (best === null) return;
  const amount = (c: number) => (c / 100).toFixed(2);
  fields.subtotal = { value: amount(best[0]), confidence: 0.9 };
  fields.tax_amount = { value: amount(best[1]), confidence: 0.9 };
  fields.total = { value: amount(best[2]), confidence: 0.9 };
}

/**
 * A net no label names as one, found by the cross-check: the total less the
 * tax, when the document prints that amount where a net stands, a bare 'Total'
 * above 'Total with tax' ('Total 1 242,43 €', 'Tax 212,87 €', 'Total with tax
 * 1 455,30 €') or a tax row's base ('TVA €4.350,40 20% €870,08'). Only with a
 * tax above zero and at most 30% of the net, as decideAmounts asks; less sure
 * than a labelled net, as nothing but the sum says what it is.
 */
function netFromTotalAndTax(lines: Line[], fields: DocumentFields): void {
  if (fields.subtotal || !fields.total || !fields.tax_amount) return;
  const tax = cents(fields.tax_amount.value);
  const net = cents(fields.total.value) - tax;
  if (!plausibleTax(net, tax)) return;
  const printed = [...labelledAmounts(lines, TOTAL_PLAIN, NOT_TOTAL), ...labelledAmounts(lines, TAX_LABEL, NOT_TAX_AMOUNT)];
  if (printed.includes(net)) fields.subtotal = { value: (net / 100).toFixed(2), confidence: 0.75 };
}

/**
 * A total no known label names ('Precio Venta: S/ 236' under 'Op. Gravadas: S/ 200.00' and 'IGV: S/ 36.00'): the
 * labelled net plus the labelled tax, when the document prints that sum. Only with a tax above zero and at most 30% of
 * the net, as decideAmounts asks; below 0.8, as no label says it is the total.
 */
function totalFromNetAndTax(lines: Line[], fields: DocumentFields): void {
  if (fields.total || !fields.subtotal || !fields.tax_amount) return;
  const net = cents(fields.subtotal.value);
  const tax = cents(fields.tax_amount.value);
  if (!plausibleTax(net, tax)) return;
  const printed = lines.slice(0, 400).some((line) => amountsIn(line.text.replace(PAGE_MARK, ' ')).some((amount) => cents(amount) === net + tax));
  if (printed) fields.total = { value: ((net + tax) / 100).toFixed(2), confidence: 0.7 };
}

/**
 * Whether an address's domain is the supplier's own ('info@qualityhosting.de'
 * for 'QualityHosting AG'): a single address on a document is as often the
 * customer's or a marketplace's, so only this cross-check makes an email sure.
 */
function supplierDomain(email: string, supplier: string | undefined): boolean {
  if (!supplier) return false;
  const domain = (email.split('@')[1] ?? '').toLowerCase().split('.').slice(0, -1).join('').replace(/[^a-z0-9]/g, '');
  const words = supplier.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').split(/[^a-z0-9]+/).filter((w) => w.length >= 4 && !COMPANY_SUFFIX.test(w));
  const joined = supplier.toLowerCase().replace(/[^a-z0-9]/g, '');
  return domain.length >= 3 && (words.some((w) => domain.includes(w)) || joined.startsWith(domain) || domain.includes(joined));
}

const FUNCTION_WORDS = /^(?:the|to|of|or|and|your|our|for|with|about|visit|please|der|die|das|und|von|zur|zum|für|mit|le|la|les|et|des|du|pour|avec|el|los|las|y|para|il|di|per|het|een|voor|en|van|met|do|na|i|z|w|dla)$/i;
const NAME_PARTICLE = /^(?:de|da|das|do|dos|del|della|la|le|los|las|y|e|i|van|ter|di|du)$/;
/** A sentence or a tagline ('Email or talk to us about your AWS account'), not a party's name: long, or built of function words. */
function sentence(name: string): boolean {
  const words = name.split(/\s+/);
  // An exclamation ends a slogan, even with OCR's specks after it ('Die Zeitung gehört dazu!\ =').
  if (/https?:|www\.|\.(?:com|net|org|de|fr|nl|in)\/|[!?][^\p{L}\p{N}]*$/iu.test(name)) return true;
  if (COMPANY_SUFFIX.test(name) && words.length <= 8) return false;
  // A name's particles are function words too ('Lázaro de la Vega y San Román'): every other word of a name is capitalised.
  if (words.length <= 8 && words.every((w) => NAME_PARTICLE.test(w) || /^\p{Lu}/u.test(w)) && /^\p{Lu}/u.test(name)) return false;
  return words.length > 8 || words.filter((w) => FUNCTION_WORDS.test(w)).length >= 2;
}

/**
 * A company named in the document (a cell with a legal form, on the first or
 * last forty lines, not the customer's) whose words are in one of the web or
 * mail domains the document prints: the supplier's own domain.
 */
/** The first ten web or mail domains a document prints, each as an address ('x@acme.example'), for supplierDomain(). */
function printedDomains(text: string): string[] {
  return [...new Set([...text.matchAll(/@([a-z0-9.-]+\.[a-z]{2,})|\bwww\.([a-z0-9.-]+\.[a-z]{2,})/gi)].map((m) => `x@${(m[1] ?? m[2]).toLowerCase()}`))].slice(0, 10);
}

function domainCompany(lines: Line[], text: string, customer: string | undefined): string | null {
  const domains = printedDomains(text);
  if (domains.length === 0) return null;
  const scan = lines.length > 80 ? [...lines.slice(0, 40), ...lines.slice(-40)] : lines;
  for (const line of scan) {
    if (CUSTOMER_LABEL.test(line.text)) continue;
    for (const cell of line.cells.slice(0, 3)) {
      if (!COMPANY_SUFFIX.test(cell)) continue;
      const name = cleanName(cell);
      if (name && name !== customer && !sentence(name) && domains.some((d) => supplierDomain(d, name))) return name;
    }
  }
  return null;
}

/** A remittance slip's heading (Xero's 'PAYMENT ADVICE', 'Remittance advice', 'Zahlschein'): the slip goes back to the payee. */
const REMITTANCE = /\b(?:payment|remittance)\s+(?:advice|slip|stub)\b|\bremittance\b|\bavis\s+de\s+paiement\b/i;

/**
 * A Brazilian DANFE's receipt stub, which the customer signs and returns: 'RECEBEMOS DE Empresa Lucro Presumido Ltda OS
 * PRODUTOS/SERVIÇOS CONSTANTES DA NOTA FISCAL…', the wording its layout prescribes (the issuer's name between).
 */
const DANFE_STUB = /\brecebemos\s+de\s+([^\t]{2,120}?)\s+os\s+produtos\b/i;

/**
 * The payee a slip that goes back to the supplier names: a remittance slip's addressee ('PAYMENT ADVICE' over 'To:
 * TINYZIMMERTECH LTD'), a DANFE stub's issuer.
 */
function remittancePayee(lines: Line[]): string | null {
  for (const line of lines.slice(0, 6)) {
    const issuer = DANFE_STUB.exec(line.text)?.[1];
    const name = issuer ? cleanName(issuer) : null;
    if (name) return name;
  }
  const at = lines.findIndex((line) => REMITTANCE.test(line.text) && line.text.length < 80);
  for (const line of at < 0 ? [] : lines.slice(at, at + 4)) {
    for (const cell of line.cells) {
      const payee = /^(?:to|pay\s+to|payable\s+to|an|à)\s*:\s*(.+)$/i.exec(cell)?.[1];
      if (payee) return cleanName(payee);
    }
  }
  return null;
}

/**
 * A person who signs with their own address ('Jaxson Van Doorn' beside 'jaxson.vandoorn@gmail.com', a freelancer's
 * invoice): the name on the first lines that the address spells, letter for letter, when it is not the customer's.
 */
function namedByAddress(lines: Line[], text: string, customer: string | undefined): string | null {
  const letters = (value: string) => value.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '');
  // (An address's local part is read from its start only, at most 64 characters: linear in the text.)
  const locals = [...text.matchAll(/(?<![a-z0-9._-])([a-z0-9._-]{1,64})@[a-z0-9-]+\.[a-z]/gi)].slice(0, 10).map((m) => letters(m[1]));
  for (const line of lines.slice(0, 15)) {
    for (const cell of line.cells.slice(0, 4)) {
      const name = cleanName(cell);
      if (name && name !== customer && name.split(/\s+/).length >= 2 && letters(name).length >= 6 && locals.includes(letters(name))) return name;
    }
  }
  return null;
}

/** A company's legal form: where its name ends. */
const LEGAL_FORM = /\b(?:ltd|limited|llc|inc|corp|corporation|gmbh|ag|plc|sarl|s\.a\.s?|s\.r\.l|b\.v|n\.v|oy|lda|sp\.\s?z\s?o\.o)\b\.?/gi;

/** Two parties' names OCR ran into one line ('ACME Corp XYZ Ltd'): the first, up to its legal form; never a 'GmbH & Co. KG'. */
function firstOfTwoCompanies(name: string): string {
  const forms = [...name.matchAll(LEGAL_FORM)];
  if (forms.length < 2) return name;
  const end = (forms[0].index ?? 0) + forms[0][0].length;
  const between = name.slice(end, forms[1].index).trim();
  return between && !/&|\bco\b|\bund\b|\band\b/i.test(between) && /^\p{Lu}/u.test(between) ? name.slice(0, end) : name;
}

/** A party's name as a line prints it, cleaned; null when the line names nobody (a label, a title, a street, a date). */
export function cleanName(value: string): string | null {
  // A letterhead runs name, street and town together with a separator ('Acme GmbH | Europa-Allee 1', 'Au bon moulin SARL - 1242 chemin').
  const name = firstOfTwoCompanies(value.split(/\t| {2,}|,\s*(?=\d)|\s+[|•●·]\s+|\s+[-–]\s+(?=\d)/)[0].replace(/[;,:]+$/, '').trim());
  if (name.length < 2 || name.length > 120 || /@|^\+?\d[\d\s-]+$/.test(name) || !/[A-Za-z]/.test(name)) return null;
  // A salutation, a tax id or a letter-spaced title is not a party's name. A tax id has digits: 'DE VINCI FABLAB' is a
  // name, though run together it has a German VAT id's shape.
  if (/^(?:herrn?|frau|mr|mrs|ms|m\.|mme|sr|sra)\.?$/i.test(name) || (/\d/.test(name) && TAX_ID_PATTERN.test(name.replace(/\s/g, ''))) || /^(?:\p{L} ){3,}\p{L}$/u.test(name)) return null;
  // Another label, a column heading or a reference is not a name ('Käufer', 'INVOICE INFORMATION', 'REFCLI0215').
  if (SELLER_WORDS.test(name) && name.split(/\s+/).length === 1) return null;
  if (BUYER_WORDS.test(name) && name.split(/\s+/).length === 1) return null;
  // A column's own heading ('Kundennummer', 'Invoice Date') is not a name.
  if (/^[\p{L}.-]*(?:nummer|number|datum|date|nr\.?)$/iu.test(name)) return null;
  // Nor a two- or three-word field heading ('Issue Date', 'Date paid', 'Numer faktury', 'Data wystawienia'), unless a legal form says company.
  if (!COMPANY_SUFFIX.test(name) && /^(?:\p{L}+\s)?(?:date|datum|data|fecha|number|nummer|numer|num[ée]ro|n[uú]mero|nr\.?|no\.?)(?:\s\p{L}+)?$/iu.test(name)) return null;
  if (/^(?:from|to|an|de|à|a|van|od|do|\p{L}*empf[äa]nger|compte|account|name|nom|nombre|naam|nazwa)$/iu.test(name)) return null;
  // A logo's placeholder or a field's own heading ('LOGO Vendeur', 'SELLER TRADE NAME') is not a name either.
  // A street line is an address, not a name ('35 rue d'ici', 'Musterstraße 12', '12 High Street').
  if (STREET.test(name)) return null;
  // Nor is a town's line ('75018 PARIS, FR', 'DE 80333 München', 'D-63571 Gelnhausen') or a code without a word ('9B01').
  if (/^(?:[A-Z]{1,2}[- ]?)?\d{4,5}\s+\p{L}/u.test(name) || !/\p{L}{2}/u.test(name)) return null;
  // A copy's marker ('Original', 'Duplicado', 'Kopie') heads a form; it names nobody.
  if (/^(?:original|orig\.|duplicado|triplicado|duplicate|copy|copia|copie|kopie|kopia|orygina[łl]|duplikat)$/i.test(name)) return null;
  // Nor does a specimen's or a draft's watermark ('Muster' across a doctor's sample bill, 'SPECIMEN', 'Entwurf').
  if (SPECIMEN.test(name)) return null;
  // A line that states a legal form ('Association de loi 1901', 'Société par actions simplifiée au capital de 10 000 €') says what
  // the sender is, not who.
  if (LEGAL_STATUS.test(name)) return null;
  if (/^logo\b/i.test(name) || ((SELLER_WORDS.test(name) || BUYER_WORDS.test(name)) && /\b(?:name|nom|nombre|naam|nazwa|address|adresse)\b/i.test(name))) return null;
  if (/\b(?:information|details|summary|angaben|données|datos|gegevens|dane|dati|anagrafici)\b/i.test(name) || /^[A-Z]+\d[A-Z\d]*$/.test(name)) return null;
  // Nor a field with its value ('Debiteurennummer: 97654'), nor the document's title alone ('INVOICE'), nor a date ('14 Sep 2021').
  if (datesIn(name).length > 0 && name.replace(/[^\p{L}]/gu, '').length <= 9) return null;
  if (/^\p{L}[\p{L}./ -]{0,40}:\s*\S/u.test(name) || KINDS.some(([, title]) => title.test(name) && name.split(/\s+/).length === 1)) return null;
  // Nor a tax id under its short label ('TVA FR26844902726', 'VAT GB123456789').
  const words = name.split(/\s+/);
  const last = words[words.length - 1];
  if (words.length <= 3 && /\d/.test(last) && TAX_ID_PATTERN.test(last) && words.slice(0, -1).every((word) => word.length <= 10 && !/\d/.test(word))) return null;
  // Nor a document's title with its number ('Facture N° 2021-001-F', 'Rechnung Nr. 7'): a reference.
  if (TITLE_WITH_NUMBER.test(name) && KINDS.some(([, title]) => title.test(name.split(/\s+/)[0]))) return null;
  return name;
}

const TITLE_WITH_NUMBER = /^\p{L}+\s*(?:n[°º]|nr\.?|no\.?|#|number|nummer|num[ée]ro|n[uú]mero)\s*[:.]?\s*[\p{L}\d/-]*\d/iu;

const SPECIMEN = /^(?:muster|specimen|sp[ée]cimen|sample|draft|entwurf|brouillon|borrador|bozza|esempio|ejemplo|exemplo|wz[óo]r|voorbeeld|void)$/i;
const LEGAL_STATUS = /^(?:association\s+(?:de\s+)?loi\s+(?:de\s+)?1901|(?:soci[ée]t[ée]|sas|sarl|sa|eurl|gmbh|ltd|s\.?r\.?l\.?)\b.*\bau\s+capital\b|.*\b(?:capital\s+social|stammkapital|share\s+capital)\b)/i;

/** A form's heading of a party's name ('Nome / Nome Empresarial', 'NOME / RAZÃO SOCIAL', 'Nombre o razón social'). */
const NAME_HEADING = /^(?:nome(?:\s*\/\s*(?:nome\s+empresarial|raz[ãa]o\s+social))?|raz[ãa]o\s+social|nombre(?:\s+(?:o|y|\/)\s*raz[óo]n\s+social)?|raz[óo]n\s+social|name|firmenname|raison\s+sociale|ragione\s+sociale|denominazione)$/i;

/**
 * A form's party section, its heading on a line of its own ('PRESTADOR / FORNECEDOR', set left of its block), whose block is
 * rows of field headings over rows of values: the value under the name's heading ('Nome / Nome Empresarial' over 'Serviços
 * de Publicidade e Propaganda'), from the line before the section's heading to four after it.
 */
function nameInSection(lines: Line[], label: RegExp): { value: string; index: number; sameLine: false } | null {
  for (let i = 0; i < Math.min(lines.length, 120); i += 1) {
    const heading = lines[i];
    if (heading.cells.length !== 1 || heading.text.length > 40 || /\d/.test(heading.text) || !label.test(heading.text)) continue;
    for (let j = Math.max(0, i - 1); j <= i + 4 && j < lines.length - 1; j += 1) {
      const column = lines[j].cells.findIndex((cell) => NAME_HEADING.test(cell));
      if (column < 0) continue;
      const row = lines.slice(j + 1, j + 3).find((line) => line.cells.length === lines[j].cells.length);
      const name = row ? cleanName(row.cells[column]) : null;
      if (name) return { value: name, index: i, sameLine: false };
    }
  }
  return null;
}

/**
 * A letter's salutation ('Dear customer,', 'Sehr geehrte Damen und Herren,', 'Madame, Monsieur,'): a short line of its own
 * that ends in its comma, unlike an addressee's line ('Monsieur Jean Dupont') or a tagline ('Beste Qualität seit 1950').
 */
const SALUTATION_LINE = /^(?:dear|sehr\s+geehrte[rs]?|liebe[rs]?|madame|monsieur|mesdames|ch[eè]re?s?|estimad[oa]s?|gentil[ei]|egregi[oa]|geachte|beste|szanown\p{L}*)\b.{0,50}[,!]$/iu;

/** Whether a letter's salutation follows within six lines: the block there is the addressee's (the window), not the sender's. */
function addressedBelow(lines: Line[], at: number): boolean {
  return lines.slice(at + 1, at + 7).some((line) => SALUTATION_LINE.test(line.text.trim()));
}

/**
 * The sender's block set beside the customer's ('Example, LLC  Bill To' over
 * '123 Fake Street  Customer'): the name left of a line's only other cell, the
 * customer's label, on the first fifteen lines.
 */
function besideBillTo(lines: Line[]): string | null {
  for (const line of lines.slice(0, 15)) {
    if (line.cells.length !== 2 || !new RegExp(`^${CUSTOMER_LABEL.source}`, CUSTOMER_LABEL.flags).test(line.cells[1]) || line.cells[1].length > 25) continue;
    const name = cleanName(line.cells[0]);
    if (name && !CUSTOMER_LABEL.test(line.cells[0]) && !SUPPLIER_LABEL.test(line.cells[0])) return name;
  }
  return null;
}

/**
 * A party's name set on two lines ('MVM Musterhafter' over 'Versicherungsverein
 * Musterstadt a.G.'): the next line joins it when the name has no legal form
 * and that line, a short one without digits or a label, ends in one.
 */
/**
 * The name in the supplier's block that its bank account is in ('Verkäufer:' over 'Physiotherapeutin' and
 * 'Tanja Tinder', and 'Kontoname: Tanja Tinder' further down): the first line of a block may be a trade or a title.
 */
function payeeInBlock(lines: Line[], supplier: { index: number; sameLine: boolean }): string | null {
  if (supplier.sameLine) return null;
  const payee = findLabelled(lines, PAYEE_ACCOUNT, cleanName)?.value;
  if (!payee) return null;
  return lines.slice(supplier.index + 1, supplier.index + 5).some((line) => line.cells.includes(payee)) ? payee : null;
}

function continuedName(lines: Line[], name: string): string {
  if (COMPANY_SUFFIX.test(name)) return name;
  const at = lines.findIndex((line) => line.cells[0] === name);
  const next = at >= 0 ? lines[at + 1]?.cells[0] : undefined;
  if (!next || next.length > 60 || /[\d:@]/.test(next) || !COMPANY_SUFFIX.test(next)) return name;
  return `${name} ${next}`;
}

export function extractFields(document: string): Extraction {
  const text = fieldText(document);
  const started = Date.now();
  const lines = toLines(text);
  const fields: DocumentFields = {};
  const set = (key: FieldKey, value: string | null | undefined, confidence: number) => {
    if (value) fields[key] = { value, confidence: Math.round(confidence * 100) / 100 };
  };

  const kind = guessKind(lines);
  set('kind', kind.value, kind.confidence);
  const statement = kind.value === 'other' && lines.slice(0, 6).some(isStatementTitle);

  // A year alone after the title is the period it settles ('Abrechnung 2010', a service-charge statement), not its number.
  const invoice = findLabelled(lines, INVOICE_LABEL, (v) => {
    const id = identifier(v);
    return id !== null && /^(?:19|20)\d{2}$/.test(id) ? null : id;
  });
  const underLabel = invoice ? null : referenceUnderLabel(lines, INVOICE_LABEL);
  if (invoice) set('invoice_number', invoice.value, invoice.sameLine ? 0.9 : 0.8);
  else if (underLabel) set('invoice_number', underLabel, 0.7);
  else if (kind.value === 'invoice') {
    // An invoice whose number is labelled only 'Nº:' or 'No.:' near its title (Spanish and Italian forms): less sure.
    // (Or 'Nº' right before the number, on a line of its own: a Brazilian DANFE's 'Nº000.000.002'.)
    const bare = findLabelled(lines.slice(0, 12), /^(?:n[º°o]|nr|no\.|num\.?|n\.)\s*:|^n[º°]\s?(?=\d)/iu, identifier);
    if (bare) set('invoice_number', bare.value, 0.6);
  }
  // A title alone on its line with the document's number alone below it ('Invoice' over 'SAMPLE-002', 'Purchase order' over
  // 'NE SERIES-A/123'): that number, less sure than a labelled one.
  const titled = fields.invoice_number || (kind.value !== 'invoice' && kind.value !== 'purchase_order') ? null : numberUnderTitle(lines, kind.value);
  if (titled) set(kind.value === 'invoice' ? 'invoice_number' : 'order_number', titled, 0.6);
  const order = findLabelled(lines, ORDER_LABEL, identifier);
  if (order) set('order_number', order.value, order.sameLine ? 0.85 : 0.75);
  const quote = findLabelled(lines, QUOTE_LABEL, identifier);
  if (quote) set('quote_number', quote.value, quote.sameLine ? 0.85 : 0.75);

  // Currency: a label says it outright; else the codes and symbols beside the amounts, the total's first.
  const labelledCurrency = findLabelled(lines, /(?:\bcurrency|w[äa]hrung|\bdevise|\bmoneda|\bvaluta|\bwaluta|\bmoeda)\b/iu, (v) => currenciesIn(v.toUpperCase())[0] ?? codeAlone(v));
  const counts = new Map<string, number>();
  for (const line of lines) for (const code of currenciesIn(line.text)) counts.set(code, (counts.get(code) ?? 0) + (amountsIn(line.text).length > 0 ? 2 : 1));
  // The gross total by its own label first; what is left to pay, or a plain 'Total', only after it.
  // (A strong label's net, 'Gesamtsumme  netto', is no total either.)
  const total = findAmount(lines, TOTAL_STRONG, NOT_TOTAL_OR_DUE) ?? findAmount(lines, TOTAL_STRONG, NOT_TOTAL) ?? findAmount(lines, TOTAL_PLAIN, NOT_TOTAL);
  const totalCurrency = total ? currenciesIn(lines[total.index].text + ' ' + (lines[total.index + 1]?.text ?? ''))[0] : undefined;
  const mostUsed = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (labelledCurrency) set('currency', labelledCurrency.value, 0.95);
  else if (totalCurrency) set('currency', totalCurrency, 0.9);
  else if (mostUsed) set('currency', mostUsed, 0.7);
  else if (/\d\s?kr\b|\bkr\.?\s?\d/i.test(text)) {
    // 'kr' is the krone or krona of three countries: the document's own words tell which (Norway's 'MVA', Sweden's 'att betala', Denmark's 'at betale').
    const krone = /\bmva\b|\bforfallsdato\b|[åÅ]\s+betale\b/i.test(text) ? 'NOK' : /\batt\s+betala\b|\bf[öo]rfallodag|\bmomsreg/i.test(text) ? 'SEK' : /\bat\s+betale\b|\bforfaldsdato\b|\bcvr\b/i.test(text) ? 'DKK' : null;
    if (krone) set('currency', krone, 0.7);
  } else if ((text.match(EURO_AS_E)?.length ?? 0) >= 2 || (total !== null && new RegExp(EURO_AS_E.source, 'u').test(lines[total.index].text))) {
    // Amounts written with a lone 'e' after them (twice, or the total), and no other currency: the euro, as TeX prints
    // '\euro' without its font ('10,00 e'), and as Finns write it ('248,00 e'). Not sure: the person is asked.
    set('currency', 'EUR', 0.6);
  }
  if (fields.currency?.value === 'USD' && bareDollar(text)) {
    const dollar = dollarOf(text);
    set('currency', dollar.code, dollar.sure ? fields.currency.confidence : Math.min(fields.currency.confidence, 0.7));
  }
  // A slash date whose second part cannot be a month ('11/17/2017') shows the document writes the month first; one whose first part cannot be, the day.
  const slashDates = [...text.matchAll(/\b(\d{1,2})\/(\d{1,2})\/\d{4}\b/g)].map((m) => [Number(m[1]), Number(m[2])]);
  const writesMonthFirst = slashDates.some(([a, b]) => a <= 12 && b > 12);
  const writesDayFirst = slashDates.some(([a, b]) => a > 12 && b <= 12);
  // A US address ('Città, PR 12345') or dollars hint at month-first dates only in an English document: an Italian 'Fattura' writes the day first.
  const foreignTitle = /\b(?:fattura|factura|fatura|facture|rechnung|factuur|faktura|scadenza|vencimento|f[äa]llig\p{L}*|[ée]ch[ée]ance|vencimiento)\b/iu.test(text);
  const monthFirst = writesMonthFirst || (!writesDayFirst && !foreignTitle && (fields.currency?.value === 'USD' || /\b(?:USA|United States|, [A-Z]{2} \d{5})\b/.test(text)));

  // Nothing labels a total: none is given. The largest amount with cents was given at 0.3 until the seventh pass; on
  // the 73 real documents of the development set it was wrong every time it was used (4 of 4: a taxi receipt's fare
  // beside its total, a blank form's sample amount, two scans' stray numbers), and an empty field asks the person.
  if (total) set('total', total.value, TOTAL_STRONG.test(lines[total.index].text) ? 0.9 : 0.75);
  const subtotal = findAmount(lines, SUBTOTAL_LABEL, NOT_SUBTOTAL);
  if (subtotal) set('subtotal', subtotal.value, 0.8);
  const tax = findAmount(lines, TAX_TOTAL_LABEL, NOT_TAX_AMOUNT) ?? findAmount(lines, TAX_LABEL, NOT_TAX_AMOUNT);
  if (tax && Number(tax.value) !== 0 && tax.value !== fields.total?.value && tax.value !== fields.subtotal?.value) set('tax_amount', tax.value, 0.7);
  // A tax total of zero is a value when the net and gross totals agree (an exempt or reverse-charge invoice).
  const taxTotal = findAmount(lines, TAX_TOTAL_LABEL, NOT_TAX_AMOUNT);
  if (!fields.tax_amount && taxTotal && Number(taxTotal.value) === 0 && fields.subtotal && fields.subtotal.value === fields.total?.value) set('tax_amount', '0.00', 0.7);
  // Tax printed only per rate or per base ('USt. 19,00% auf 804,35 €  152,83 €' and 'USt. 19,00% auf 4,99 €  0,95 €'), with no
  // tax total: one of them is not the document's tax. Their sum is, when it makes the net total the gross; else none is given.
  // So is a tax row per rate with its one amount ('BTW (19,00%): 39,90' and 'BTW (10,00%): 12,00'), when the rates differ.
  const taxRows = taxTotal ? [] : lines.filter((l) => TAX_LABEL.test(l.text) && !NOT_TAX_AMOUNT.test(l.text)).slice(0, 40);
  const perBase = taxRows.filter((l) => PER_RATE.test(l.text));
  // (Rows of one tax: a municipal tax beside the VAT, 'Impuesto Municipal 1,00%' and 'IVA 21%', is another tax, not another rate.)
  const rowsOfTax = new Map<string, Line[]>();
  for (const l of taxRows) {
    if (!RATE.test(l.text) || amountsIn(l.text.replace(RATE, '')).length !== 1) continue;
    const word = TAX_LABEL.exec(l.text)![0].toLowerCase();
    rowsOfTax.set(word, [...(rowsOfTax.get(word) ?? []), l]);
  }
  const rateRows = [...rowsOfTax.values()].find((rows) => new Set(rows.map((l) => RATE.exec(l.text)?.[1])).size >= 2) ?? [];
  const perRate = (perBase.length >= 2 ? perBase : rateRows).slice(0, 20);
  if (perRate.length >= 2 && fields.tax_amount) {
    const sum = perRate.reduce((acc, l) => acc + Number(lastAmount(l) ?? 0), 0);
    const adds = fields.subtotal && fields.total && Math.abs(Number(fields.subtotal.value) + sum - Number(fields.total.value)) < 0.01;
    if (adds) set('tax_amount', sum.toFixed(2), 0.7);
    else delete fields.tax_amount;
  }
  crossCheckAmounts(fields);
  decideAmounts(lines, fields);
  netFromTotalAndTax(lines, fields);
  totalFromNetAndTax(lines, fields);

  const dateOf = (v: string) => datesIn(v, monthFirst)[0] ?? null;
  const ownKind = kind.value === 'purchase_order' || kind.value === 'quote';
  // An order's own order date, a quote's quotation date, is its issue date; an invoice's is not.
  const issueLabel = ownKind ? new RegExp(`${ISSUE_LABEL.source}|${ISSUE_OTHER.source}`, 'iu') : ISSUE_LABEL;
  const issueStrong = findLabelled(lines, issueLabel, (v) => (OTHER_INVOICE.test(v.split(/\s{2,}|\t/)[0] ?? '') ? null : dateOf(v)));
  // A statement's 'Datum' heads its postings' column: only a label that names the document's own date dates it.
  const issuePlain = issueStrong || statement ? null : findLabelled(lines, ISSUE_PLAIN, (v) => (PRINTED_AT.test(v) || OTHER_INVOICE.test(v.split(/\s{2,}|\t/)[0] ?? '') ? null : dateOf(v)));
  const issueOther = issueStrong || issuePlain || statement ? null : findLabelled(lines, ISSUE_OTHER, dateOf);
  const issue = issueStrong ?? issuePlain;
  const due = findLabelled(lines, DUE_LABEL, (v) => datesIn(v, monthFirst)[0] ?? null, false, undefined, 2);
  if (issue) set('issue_date', issue.value, issue.sameLine ? 0.9 : 0.8);
  else if (issueOther) set('issue_date', issueOther.value, 0.6);
  else if (!statement) {
    // The invoice's number and a date in one row ('TD01 fattura  FPR 16/19  02-07-2019'): that row dates the invoice.
    const numberRow = invoice?.sameLine ? lines[invoice.index].text.split(invoice.value)[1] : undefined;
    const dated = numberRow ? datesIn(numberRow, monthFirst)[0] : undefined;
    const first = lines.map((l) => datesIn(l.text, monthFirst)[0]).find(Boolean);
    if (dated) set('issue_date', dated, 0.6);
    else if (first && first !== due?.value) set('issue_date', first, 0.5);
  }
  // The invoice date comes before the due date: a 'due' date before it is another date (a period's start, a delivery).
  // Payment terms run from 0 to about four months: a due date further out (a contract's end, a period's date) is not sure,
  // nor is one the document gives without an issue date to check it against.
  const termsDays = fields.issue_date && due ? (Date.parse(due.value) - Date.parse(fields.issue_date.value)) / 86_400_000 : null;
  if (due) set('due_date', due.value, termsDays === null ? 0.7 : termsDays < 0 ? 0.5 : termsDays > 120 ? 0.6 : due.sameLine ? 0.9 : 0.8);
  else if (fields.issue_date && kind.value !== 'contract' && kind.value !== 'purchase_order') {
    // A contract's terms run from each invoice it foresees, not from the contract's own date; an order's, from the invoice to come.
    // Only terms ('Net 30'): the date they lead to, computed, so less sure than a date the document writes.
    const days = termDays(lines);
    if (days !== null) set('due_date', addDays(fields.issue_date.value, days), fields.issue_date.confidence >= 0.8 ? 0.5 : 0.35);
  }

  // Parties: a label names them; else the sender's line above the address window names the supplier, and
  // the first name below it the customer; else the supplier is the company on the first lines.
  const supplier = findLabelled(lines, SUPPLIER_LABEL, cleanName, true) ?? nameInSection(lines, SUPPLIER_LABEL);
  const sender = senderLine(lines);
  let windowParty: string | null = null;
  // A name on its label's line is surer than one read below it (another party's block may sit there).
  const buyer = orderedBy(lines);
  const slipPayee = supplier ? null : remittancePayee(lines);
  if (supplier) set('supplier_name', payeeInBlock(lines, supplier) ?? continuedName(lines, supplier.value), supplier.sameLine && COMPANY_SUFFIX.test(supplier.value) ? 0.85 : 0.7);
  else if (slipPayee) set('supplier_name', slipPayee, 0.75);
  else if (sender) set('supplier_name', sender.name, 0.75);
  else if (besideBillTo(lines)) set('supplier_name', besideBillTo(lines), 0.7);
  else {
    const companyEntry = senderLines(lines).find(({ line }) => COMPANY_SUFFIX.test(line.cells[0] ?? ''));
    const company = companyEntry?.line;
    // A form's 'Firma:' or 'Company:' line among the first names the company the document comes from ('Firma:  3  Grundbesitz
    // GmbH & Co.', a landlord's statement), where no party's label does.
    const firm = lines.slice(0, 8).find((l) => /^(?:firma|company|unternehmen|soci[ée]t[ée]|empresa|azienda)\s*:?$/i.test(l.cells[0] ?? ''));
    const firmName = firm?.cells.slice(1).find((cell) => COMPANY_SUFFIX.test(cell));
    let named = firmName ? cleanName(firmName) : company ? cleanName(company.cells[0]) : null;
    // Two blocks side by side ('Adatum Corporation  CRONUS DE', the address window beside the sender's block): the sender is
    // the one whose name the document's own mail or web domain carries, and the other is the addressee.
    const beside = !firmName && company?.cells.length === 2 ? cleanName(company.cells[1]) : null;
    const domains = printedDomains(text);
    const carries = (name: string) => domains.some((d) => supplierDomain(d, name));
    // The block of the party the order reference names is the buyer's, and so is the block a letter's salutation follows
    // (the address window over 'Dear customer,'): the supplier's is the one beside it, if any.
    if (named && ((beside && carries(beside) && !carries(named)) || isBuyer(named, buyer) || (!firmName && companyEntry !== undefined && addressedBelow(lines, companyEntry.at)))) {
      windowParty = named;
      named = beside;
    }
    if (named) set('supplier_name', named, 0.7);
  }
  const holder = statement ? accountHolder(lines) : null;
  const customer = holder ? { value: holder, index: -1, sameLine: false } : (findLabelled(lines, CUSTOMER_LABEL, cleanName, true) ?? nameInSection(lines, CUSTOMER_LABEL));
  if (!fields.supplier_name) {
    // The company whose own web or mail domain the document prints ('Amazon Web Services, Inc.' and aws.amazon.com): the sender's.
    const byDomain = domainCompany(lines, text, customer?.value);
    // Past a copy's marker ('Original') and a form's code ('COD.01'): the first line that can name a party, above the customer's label.
    const customerAt = lines.slice(0, 8).findIndex((l) => CUSTOMER_LABEL.test(l.text));
    const first = senderLines(lines)
      .filter(({ at }) => customerAt < 0 || at < customerAt)
      .slice(0, 4)
      // A field's label ('Termin płatności', 'Data de emissão') heads a value, not a party.
      .filter(({ line }) => !FIELD_LABELS.some((label) => startsWith(label, line.cells[0] ?? '')))
      .map(({ line }) => cleanName(line.cells[0] ?? ''))
      .find((name) => name !== null && !/^\S*\d\S*$/.test(name)) ?? null;
    const byAddress = byDomain ? null : namedByAddress(lines, text, customer?.value);
    if (byDomain) set('supplier_name', byDomain, 0.7);
    else if (byAddress) set('supplier_name', byAddress, 0.5);
    // A business document's first line is most often its sender; other text's first line is only a heading, a sentence or a tagline.
    // Three letters at least: OCR reads a coloured bar or a logo as 'ee'.
    // Not when the first block is known to be the buyer's: its lines below are the buyer's address.
    else if (first && !windowParty && kind.value !== 'other' && !sentence(first) && /\p{L}{3}/u.test(first)) set('supplier_name', first, 0.35);
  }
  // A labelled customer outweighs a supplier guessed where no supplier's label is ('Invoice To:' over 'Woofers Inc', the only
  // company on the page); beside a supplier's label ('Sprzedawca Nabywca' over two names OCR joined) the guess stays.
  if (customer && customer.value === fields.supplier_name?.value && !lines.some((l) => SELLER_WORDS.test(l.text))) {
    delete fields.supplier_name;
    set('supplier_name', namedByAddress(lines, text, customer.value), 0.5);
  }
  // The bench found a labelled customer wrong one time in three on real layouts (a column heading, another party's block): never given as sure.
  if (customer && customer.value !== fields.supplier_name?.value) set('customer_name', customer.value, customer.sameLine ? 0.75 : 0.7);
  else if (!customer && sender) {
    const addressee = windowName(lines, sender.index);
    if (addressee && addressee !== fields.supplier_name?.value) set('customer_name', addressee, 0.6);
  } else if (!customer && windowParty) set('customer_name', windowParty, 0.6);
  if (!customer && !fields.customer_name) {
    const delivery = findLabelled(lines, DELIVERY_LABEL, cleanName, true);
    if (delivery && delivery.value !== fields.supplier_name?.value) set('customer_name', delivery.value, 0.6);
  }

  const taxIdCandidates: { value: string; index: number }[] = [];
  findLabelled(lines, TAX_ID_LABEL, (v) => {
    // 'P.IVA: (IT) 12345678903', 'NIF: (PT) 770013813': the country's code in brackets belongs to the id.
    const cell = v.split(/\t|\s{2,}|\s[-–]\s/)[0].replace(/^\(([A-Z]{2})\)\s*/, '$1');
    const token = /^[A-Z]{0,3}[\s-]?[A-Z0-9][A-Z0-9 .\-/]{4,18}[A-Z0-9]/i.exec(cell)?.[0]?.trim().replace(/\s+[A-Za-z][A-Za-z-]*$/, '');
    // An amount after 'VAT:' is the tax, not the tax id.
    if (!token || /^[\d\s]*[.,]\d{2}$/.test(token) || /^\d{1,3}(?:[.,\s]\d{3})*[.,]\d{2}\b/.test(v)) return null;
    if (/\d{4}/.test(token.replace(/[\s.\-/]/g, ''))) taxIdCandidates.push({ value: token, index: -1 });
    return null;
  }, false, (index) => {
    for (const candidate of taxIdCandidates) if (candidate.index < 0) candidate.index = index;
  });
  // No label the extractor knows: an id in its country's VAT format with a valid check digit, less sure.
  const labelled = taxIdCandidates.length > 0;
  const taxId = supplierTaxId(lines, labelled ? taxIdCandidates : unlabelledVatIds(lines));
  // An id in a country's own pattern (EU VAT, GSTIN) is surer than whatever follows a label.
  if (taxId && labelled) set('tax_id', taxId.value, taxId.sure && TAX_ID_PATTERN.test(taxId.value.replace(/[\s.-]/g, '')) ? 0.9 : 0.7);
  else if (taxId) set('tax_id', taxId.value, 0.6);

  const emails = [...new Set(text.match(EMAIL) ?? [])];
  // The supplier's own address when one has its domain; else the first (the customer's or a marketplace's may come first).
  const ownEmail = emails.slice(0, 20).find((e) => supplierDomain(e, fields.supplier_name?.value));
  if (ownEmail) set('email', ownEmail, 0.95);
  else if (emails.length > 0) set('email', emails[0], 0.7);

  const phone = findLabelled(lines, PHONE_LABEL, (v) => {
    const match = PHONE.exec(v)?.[0]?.trim();
    return match && match.replace(/\D/g, '').length >= 7 ? match : null;
  });
  // Phone numbers are written every which way; the bench found one in two labelled ones cut short or a fax's.
  if (phone) set('phone', phone.value, 0.7);

  // A statement's postings print other parties' IBANs: its own is the labelled one (below).
  for (const line of statement ? [] : lines) {
    const iban = [...line.text.toUpperCase().matchAll(IBAN)].map(([m]) => m).find(isValidIban);
    if (iban) {
      set('iban', iban.replace(/\s+/g, ''), 0.98);
      break;
    }
  }
  // An IBAN printed after its label whose check digits fail (a typing error, a sample's made-up one) is still what the
  // document says to pay to: given, but at 0.5, so the review screen asks the person to check it.
  const printedIban = fields.iban ? null : findLabelled(lines, /\bIBAN\b/, (v) => [...v.toUpperCase().matchAll(IBAN)][0]?.[0] ?? null);
  if (printedIban) set('iban', printedIban.value.replace(/\s+/g, ''), isValidIban(printedIban.value) ? 0.9 : 0.5);

  // A table's rows; else blocks of labelled lines, one field a line ('Quantità: 4000', 'Valore totale: 5423.20').
  const items = findLineItems(lines) ?? labelledItems(lines);
  if (items.length > 0) fields.line_items = { value: items, confidence: 0.7 };
  // Till receipts: their total above what was paid, their shop, their bare item rows (receipt.ts).
  refineReceipt(lines.map((line) => line.text), fields);

  return { fields, ms: Date.now() - started };
}
