// The labels of a document's amounts (its total, its net, its tax) in the
// supported languages, and what looks like them but is not (payment terms, a
// VAT number, a page's number). The invoice rules (extract-fields.ts) and the
// line tables (line-items.ts) both stop or start at them. Each family of labels
// is a table by language (regex sources), built into one pattern.
import { alternatives, type LabelTable } from './text-lines.ts';

/** What is to pay, and so the total as well ('Total due', 'Net à payer'). */
const PAYABLE: LabelTable = {
  en: ['total\\s+due', 'amount\\s+due', 'balance\\s+due', 'total\\s+amount\\s+due', 'total\\s+payable', 'amount\\s+payable'],
  fr: ['net\\s+[àa]\\s+payer'],
  nl: ['te\\s+betalen'],
};
/** What is still to pay after advances, which may fall short of the total. */
const STILL_DUE: LabelTable = {
  en: ['balance'],
  de: ['f[äa]lliger\\s+betrag', 'zahlbetrag', 'restbetrag'],
  fr: ['solde\\s+[àa]\\s+payer'],
  pl: ['(?:pozosta[łl]o|zosta[łl]o)\\s+do\\s+zap[łlt]aty'],
};
/** What is to pay: the total only when nothing better labels one. */
export const AMOUNT_DUE = new RegExp(`\\b(?:${alternatives(PAYABLE, STILL_DUE)})\\b`, 'i');

/** The document's total: what it comes to (and what is to pay, PAYABLE). */
const TOTAL: LabelTable = {
  en: [
    'grand\\s+total', 'total\\s+\\(?incl', 'total\\s+[^\\d\\s]{0,3}\\s*incl', 'total\\s+to\\s+pay', 'due\\s+payable', 'total\\s+gross(?:\\s+amount)?', 'invoice\\s+total',
    'total\\s+invoice(?:\\s+amount)?',
  ],
  de: ['gesamtbetrag(?!\\s+der)', 'rechnungsbetrag', 'endbetrag', 'endsumme', 'bruttosumme', 'brutto', 'summe\\s+(?:inkl|gesamt)', 'gesamtsumme', 'rechnungsendbetrag'],
  fr: ['montant\\s+total', 'total\\s+(?:net\\s+)?ttc', 'montant\\s+ttc'],
  es: ['importe\\s+total', 'total\\s+a\\s+pagar', 'importe\\s+a\\s+pagar'],
  it: ['totale\\s+(?:fattura|documento|da\\s+pagare)', 'totale\\s+(?:complessivo|generale)', 'importo\\s+dovuto'],
  // ('Totaal incl. btw' and 'Totaal bedrag' are this label's first word.)
  nl: ['totaal(?!\\s+(?:ex|excl|exclusief|btw)\\b)(?:\\s+te\\s+betalen)?'],
  pl: ['razem\\s+do\\s+zap[łlt]aty', 'do\\s+zap[łlt]aty', '(?:razem|warto[śs][ćc]|kwota)\\s+brutto'],
  pt: ['valor\\s+total', 'total\\s+(?:geral|do\\s+documento|factura|fatura)', 'montante\\s+devido', 'pre[çc]o\\s+total'],
  nordic: ['sum\\s+[åa]\\s+betale', 'maksettava(?:\\s+yhteens[äa])?', 'att\\s+betala', 'at\\s+betale'],
};
// 'Å betale' opens with a letter \b does not know.
export const TOTAL_STRONG = new RegExp(`\\b(?:${alternatives(TOTAL, PAYABLE)})\\b|(?:^|\\s)[åÅ]\\s+betale\\b`, 'i');
export const TOTAL_PLAIN = /\b(?:total|summe|totale?)\b|(?<!\p{L})yhteens[äa](?!\p{L})/iu;

/** The net, before tax. */
const NET: LabelTable = {
  en: [
    'sub\\s*-?\\s*total', 'net\\s+(?:amount|total)', 'total\\s+(?:excl\\.?|excluding|before\\s+tax|net(?!\\s+ttc)|ht)', 'total\\s+(?:amount\\s+)?without\\s+(?:vat|tax)',
    'excl\\.?\\s+(?:btw|vat|tax|tva)', 'taxable\\s+(?:value|amount)', 'amount\\s+before\\s+tax', 'net+\\s+of\\s+tax',
  ],
  de: ['zwischensumme', 'nettobetrag', 'netto', 'summe\\s+ohne', 'ohne\\s+ust', 'nettosumme', 'summe\\s+netto'],
  fr: ['sous\\s*-?\\s*total', 'total\\s+hors\\s+taxes?', 'montant\\s+ht'],
  es: ['base\\s+imponible', 'op(?:\\.|eraciones)\\s+gravadas', 'neto', 'total\\s+s\\/\\s*iva'],
  it: ['imponibile', 'totale\\s+imponibile', 'subtotale'],
  nl: ['totaal\\s+ex(?:cl)?\\b', 'subtotaal', 'bedrag\\s+excl'],
  pl: ['razem\\s+netto', '(?:warto[śs][ćc]|kwota)\\s+netto', 'suma\\s+bez\\s+podatku'],
  pt: ['base\\s+tribut[áa]vel', 'total\\s+l[íi]quido', 'pre[çc]o\\s+l[íi]quido'],
  nordic: ['veroton(?:\\s+(?:hinta|yhteens[äa]))?', 'mva-?\\s*grunnlag', 'momsgrundlag', 'underlag\\s+f[öo]r\\s+moms'],
};
export const SUBTOTAL_LABEL = new RegExp(`\\b(?:${alternatives(NET)})\\b`, 'i');

/**
 * What a total's word may label that is not the total: a net, a count, what was paid, a rounding, one part of a sum. It
 * excludes the whole line, so of the net labels only those that hold a total's word are here ('Totale imponibile', 'Sous-
 * total'): a line may print the total beside its net ('Total factura 121,00 € (Base imponible 100,00 €)').
 */
const NOT_TOTAL_WORDS: LabelTable = {
  en: ['total\\s+(?:excl|net(?!\\s+ttc)|before|ht\\b|tax|vat|without|amount\\s+(?:of\\s+lines|without))', 'net\\s+total', 'total\\s+(?:qty|quantity|items|hours|time|weight)'],
  de: ['zwischensumme', 'nettobetrag', 'gesamtbetrag\\s+der', '(?:gesamt)?summe\\s+netto', 'gezahlte[rn]?\\s+betrag', 'bereits\\s+gezahlt', 'rundungsbetrag', 'ohne\\s+ust'],
  fr: ['total\\s+hors'],
};
const NET_WITH_A_TOTAL_WORD: LabelTable = { net: Object.values(NET).flat().filter((label) => /tota|summe/i.test(label)) };
export const NOT_TOTAL = new RegExp(`\\b(?:${alternatives(NOT_TOTAL_WORDS, NET_WITH_A_TOTAL_WORD)})`, 'i');
/** 'Zahlbar innerhalb 30 Tagen netto': payment terms, not a net amount; nor one rate's base ('158,88 EUR Netto zzgl. MwSt. 7%  11,12 EUR'). */
export const NOT_SUBTOTAL = /\b(?:zahlbar|innerhalb|tagen?|days|jours|skonto)\b|\d\s*(?:eur\s*|€\s*)?netto\s+zzgl\b/i;
/** The labels of a document's tax total, looked for before any line that merely names the tax. */
const TAX_TOTAL: LabelTable = {
  en: ['vat\\s+total', 'tax\\s+total', 'total\\s+(?:vat|tax(?:es)?|tva|iva|btw|impuestos?)(?:\\s+amount)?', '(?:vat|tax|gst)\\s+amount', '^\\s*(?:included|incl\\.?)\\s+(?:vat|tax|gst)'],
  de: ['steuerbetrag', 'summe\\s+(?:umsatzsteuer|mehrwertsteuer|ust|mwst)', 'ust\\.?\\s+gesamt', 'mwst\\.?\\s+gesamt', 'zuz[üu]gl\\.?\\s+(?:ust|mwst)', 'mwst\\.?-?\\s*betrag', 'mehrwertsteuer\\s+gesamt'],
  fr: ['montant\\s+(?:de\\s+la\\s+)?tva'],
  // ('Total IVA' is the first line's; 'Totale imposta' is kept whole, not only its 'imposta': where the label starts matters.)
  it: ['totale\\s+iva', 'totale\\s+imposta', 'imposta', '^\\s*impost[eo](?=\\s*[€\\d])'],
  nl: ['btw\\s+(?:totaal|bedrag)', 'totaal\\s+btw'],
  pl: ['kwota\\s+vat', '(?:warto[śs][ćc]|razem|suma)\\s+vat', 'kwota\\s+podatku'],
  pt: ['total\\s+do\\s+iva', 'valor\\s+(?:do\\s+)?iva'],
};
export const TAX_TOTAL_LABEL = new RegExp(`\\b(?:${alternatives(TAX_TOTAL)})\\b`, 'i');
export const TAX_LABEL = /\b(?:vat|tax|gst|hst|sales\s+tax|mwst|ust|umsatzsteuer|mehrwertsteuer|tva|iva|btw|moms|mva|pdv|dph|impuestos?|alv|igv)\b/i;
export const NOT_TAX_AMOUNT = /\b(?:vat|tax|gst|btw|tva|iva|mwst|ust|umsatzsteuer|mehrwertsteuer)\s*-?\s*(?:id|no|number|nummer|numero|reg|registration|nr|#|n°|intracom\w*)|\bn[°º]\s*(?:tva|iva)\b|\btotal\s+(?:incl|including|with)|\b(?:excl|excluding|before|ohne|without|hors|sans|netto|brutto)\b|ust\.?-?\s*id|\bTIN\b|\bsumme\b|\bp\.\s?iva\b|\bpartita\s+iva\b|\b(?:codice|identificativo)\s+fiscale\b|\b(?:nif|nip|cnpj)\b|\b(?:mva|moms)-?\s*(?:grunnlag|grundlag)\b|\bunderlag\s+f[öo]r\s+moms\b|\b(?:tax|vat)\s+exempt|\bexempt\b|\bsteuerfrei|\bexon[ée]r/i;

/** A page's number ('Strona 1 z 1', 'Page 2 of 4', OCR's 'Strona1z1') is no amount. */
export const PAGE_MARK = /\b(?:page|seite|strona|pagina|p[áa]gina|blatt|folha)\s*\d+(?:\s*(?:of|von|z|de|di|sur|\/)\s*\d+)?/giu;

/** A tax rate on a row ('19,0%', 'Tax 15%', not the '19%' of '119%'): its number in the first group. */
export const RATE = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?)\s?%/;

/** The rate's number, in percent ('5,5 %' → 5.5). */
export const rateOf = (match: RegExpExecArray) => Number(match[1].replace(',', '.'));
