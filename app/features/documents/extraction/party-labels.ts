// The words that name a document's two parties, one table per party and
// language (regex sources), from which both the labels that head a party's
// block and the words that mark a party's line are built: a language is added,
// and a word reviewed, in one place.
import { alternatives, type LabelTable } from './text-lines.ts';

/** A label ends at its colon, or at the end of its cell (a spreadsheet's label column). */
export const LABEL_END = '(?:\\s*:|(?=\\s{2,})|\\s*$)';

/** One word (or a fixed compound) per entry that names the party that sells: as a label, and in a line of its block. */
const SELLER_TERMS: LabelTable = {
  en: ['supplier', 'vendor', 'seller', '(?:service\\s+)?provider', 'payee', 'biller'],
  de: ['lieferant', 'verk[äa]ufer'],
  fr: ['[ée]metteur', 'fournisseur', 'vendeur'],
  es: ['emisor', 'proveedor', 'vendedor'],
  it: ['fornitore', 'cedente'],
  nl: ['leverancier', 'crediteur'],
  pl: ['sprzedawca'],
  pt: ['fornecedor', 'emitente'],
};

/** Phrases that only head the seller's block ('Sold by', 'Cedente/prestatore (fornitore)'). Before the words: the longer first. */
const SELLER_HEADINGS: LabelTable = {
  en: ['(?:seller|supplier|vendor)(?:\\s+trade)?\\s+name', 'sold\\s+by', 'bill\\s+from', 'issued\\s+by'],
  it: ['cedente\\s*\\/\\s*prestatore(?:\\s*\\(fornitore\\))?'],
};

/** The party that buys. 'Käufer' is not the end of a 'Ver käufer' a PDF split in two. */
const BUYER_TERMS: LabelTable = {
  en: ['customer', 'client', 'buyer', 'purchaser', 'recipient'],
  de: ['rechnungsempf[äa]nger', '(?<!\\bver\\s)k[äa]ufer(?:/leistungsempf[äa]nger)?', 'leistungsempf[äa]nger', 'kunde'],
  fr: ['acheteur'],
  es: ['receptor', 'cliente', 'comprador', 'destinatario'],
  it: ['cessionario', 'acquirente'],
  nl: ['debiteur', 'klant', 'afnemer'],
  pl: ['nabywca', 'p[łl]atnik'],
  pt: ['adquirente'],
};

/** Phrases that only head the buyer's block: where the invoice or the goods go. */
const BUYER_HEADINGS: LabelTable = {
  en: ['bill(?:ed)?\\s+to', 'invoice\\s+to', 'sold\\s+to', 'ship\\s+to'],
  fr: ['factur[ée]\\s+[àa]', 'adresse\\s+du\\s+client', 'adresse\\s+de\\s+facturation'],
  es: ['facturar\\s+a', 'facturado\\s+a', 'sr\\.?\\(s\\)', 'direcci[óo]n\\s+de\\s+facturaci[óo]n'],
  it: ['cessionario\\s*\\/\\s*committente(?:\\s*\\(cliente\\))?', 'indirizzo\\s+di\\s+fatturazione'],
  nl: ['factuuradres'],
  pt: ['faturar\\s+a', 'cobrar\\s+(?:a|de)', 'endere[çc]o\\s+de\\s+fatura[çc][ãa]o'],
};

/** A party's label: its words or headings, not inside a word, and ending at a colon or the cell's end. */
export const SUPPLIER_LABEL = new RegExp(`(?<![\\p{L}-])(?<!\\blogo\\s)(?:${alternatives(SELLER_HEADINGS, SELLER_TERMS)})${LABEL_END}|\\bfrom\\s*:`, 'iu');
export const CUSTOMER_LABEL = new RegExp(`(?<![\\p{L}-])(?:${alternatives(BUYER_HEADINGS, BUYER_TERMS)})${LABEL_END}|\\bto\\s*:`, 'iu');

/**
 * A party's word anywhere in a line ('Verkäufer USt-IdNr.: DE…', 'Cliente: …'): the line is that party's. A word as \b bounds
 * one, with letters beyond ASCII: 'SELLER_NAME', a template's placeholder, holds no party's word.
 */
export const SELLER_WORDS = new RegExp(`(?<![\\p{L}\\p{N}_-])(?:${alternatives(SELLER_TERMS)})(?![\\p{L}\\p{N}_])`, 'iu');
export const BUYER_WORDS = new RegExp(`(?<![\\p{L}\\p{N}_-])(?:bill\\s+to|${alternatives(BUYER_TERMS)})(?![\\p{L}\\p{N}_])`, 'iu');
