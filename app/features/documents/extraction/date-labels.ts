// The labels of a document's dates (its issue date, its due date) and of its
// payment terms, in the supported languages: the issue and due dates' labels
// are tables by language (regex sources, each with its own bounds), built into
// one pattern each; the rest are short patterns of their own.
import { alternatives, type LabelTable } from './text-lines.ts';

/**
 * The issue date's labels, surest first: a label that names the invoice's (or
 * the document's) own date; then a bare 'Date'/'Datum'; an order or delivery
 * date only when nothing else dates the document (an invoice's order date is
 * another date: issue 34 found one taken as the invoice date at 0.9).
 */
const ISSUE_DATE: LabelTable = {
  en: ['\\b(?:invoice|issue|issued|document|receipt|tax\\s+point|billing|bill)\\s+date\\b', '\\bdate\\s+(?:of\\s+)?(?:issue|invoice)\\b', '\\binvoice\\s+dated\\b', '\\bissued\\s+(?:at|on)\\b'],
  de: ['\\b(?:rechnungs|beleg|belege|ausstellungs)-?datum\\b'],
  fr: ["\\bdate\\s+(?:de\\s+(?:la\\s+)?facture|d['’]\\s*[ée]mission|de\\s+facturation)\\b"],
  es: ['\\bfecha\\s+(?:y\\s+hora\\s+)?(?:de\\s+)?(?:factura|emisi[óo]n|expedici[óo]n)\\b'],
  it: ['\\bdata\\s+(?:fattura|documento)\\b'],
  nl: ['\\bfactuurdatum\\b'],
  pl: ['\\bdata\\s+(?:wystawienia|faktury)\\b', '\\bdatum\\s+faktury\\b'],
  pt: ['\\bdata\\s+(?:da\\s+fatura|de\\s+emiss[ãa]o|emiss[ãa]o)\\b', '\\bdata\\s+e\\s+hora\\s+da\\s+emiss[ãa]o\\b'],
  // 'Päivämäärä', 'Laskun päivämäärä', 'Laskupäivä' (ä is no letter to \b); 'Fakturadato', 'Fakturadatum'.
  nordic: ['(?<![a-zà-ÿ])(?:laskun\\s+)?p[äa]iv[äa]m[äa][äa]r[äa](?![a-zà-ÿ])', '\\blaskup[äa]iv[äa](?![a-zà-ÿ])', '\\bfaktura(?:dato|datum)\\b'],
  // The title's own sentence ('Rechnung Nr. 7 vom 3. März', 'Facture du 12/03', 'Faktura z dnia'), a letter's place and date
  // ('Berlin, den 3. März'). Last: 'Invoice dated' is the label above. Each starts at a word's start: from inside a word,
  // '\\p{L}*' would try every start again (a line of one long word cost its square).
  sentence: [
    '(?<!\\p{L})(?:\\p{L}*rechnung|facture|invoice|factura|fattura|factuur|faktura)\\b[^\\n]{0,60}?\\b(?:vom|von|du|del|van|of|dated|z\\s+dnia)\\b',
    '(?<!\\p{L})\\p{L}{2,},\\s+(?:den|le|el|il|dnia)(?=\\s+\\d)',
  ],
};
export const ISSUE_LABEL = new RegExp(alternatives(ISSUE_DATE), 'iu');

/** Another invoice's date: 'Date de facture associée', 'Original invoice date'. */
export const OTHER_INVOICE = /\b(?:associ[ée]e?|d['’]origine|original|previous|pr[ée]c[ée]dente|related|referenced|ursprungs\p{L}*|korrigierten)\b/iu;
// A bare 'Date' qualified by another event ('Order Date:', 'Due date:', 'Fecha de vencimiento') is not the issue date.
export const ISSUE_PLAIN = /(?<!\b(?:order|quote|quotation|delivery|shipping|ship|due|expiry|expiration|start|end|service|payment|print|travel|check-?in|check-?out)\s)(?:\bdated?\b|\bdate\s*:)|\bdatum\b|\bfecha\b(?!\s+de\s+(?:vencimiento|entrega|pedido|pago))|\bdata\s*:/iu;
export const ISSUE_OTHER = /\b(?:order|quote|quotation|delivery|shipping|lieferdatum|leverdatum)\s+date\b|\b(?:bestell|liefer|auftrags)datum\b/iu;
/** 'Datum: 30.10.2024  Zeit: 04:59:13': a date printed with its time is when the page was printed, not the document's date. */
export const PRINTED_AT = /^\S+\s+(?:(?:zeit|time|uhrzeit|heure|ora|hora)\s*:?\s*)?\d{1,2}:\d{2}/i;

/** The due date's labels that are words, bounded by \b. 'due' alone only when a date follows it ('Terms: Net 30, due April 2, 2025'); 'Total due' is an amount. */
const DUE_DATE: LabelTable = {
  en: [
    'due\\s+date', 'payment\\s+due', 'due\\s+(?:by|on)', 'pay(?:able)?\\s+by', 'pay\\s+before', 'date\\s+due', '(?:payment\\s+)?deadline', 'remit\\s+(?:until|by)',
    'valid\\s+(?:until|till)', 'expires?(?:\\s+on)?', 'due(?=\\s*:?\\s*(?:\\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?\\s))',
  ],
  de: ['f[äa]llig(?:keitsdatum|keit|\\s+am)?', 'zahlbar\\s+bis', '(?:netto|abschlag|abzug)\\s+bis', 'g[üu]ltig\\s+bis'],
  fr: ['valable\\s+jusqu', 'date\\s+limite'],
  es: ['vencimiento', 'v[áa]lido\\s+hasta'],
  it: ['data\\s+(?:di\\s+)?scadenza', 'scadenza'],
  nl: ['uiterste\\s+betaaldatum', 'vervaldatum'],
  pl: ['termin\\s+(?:p[łlt]atno[śs]ci|zap[łlt]aty)', '(?:do\\s+zap[łlt]aty|p[łlt]atne)\\s+do(?=\\s*\\d)'],
  pt: ['(?:data\\s+de\\s+)?vencimento'],
  nordic: ['f[öo]rfallodag', 'forfallsdato', 'forfaldsdato'],
};
export const DUE_LABEL = new RegExp(
  [
    // Finnish 'Eräpäivä' (ä is no letter to \b).
    '(?<![a-zà-ÿ])er[äa]p[äa]iv[äa](?![a-zà-ÿ])',
    // 'Due' alone in its cell.
    '(?<=^|\\s\\s)due(?=\\s?:?(?:\\s\\s|$))',
    `\\b(?:${alternatives(DUE_DATE)})\\b`,
    // 'Échéance' (É is no letter to \b).
    '[ÉéEe]ch[ée]ance',
    // 'Überweisen Sie den Rechnungsbetrag bitte bis zum …'.
    '(?:^|\\s)(?:[üu]berweisen|zahlen)\\s+sie\\s+(?:(?:den\\s+)?(?:rechnungs)?betrag\\s+)?(?:bitte\\s+)?bis(?:\\s+zum)?',
  ].join('|'),
  'i',
);

/** Payment terms in days ('Net 30', 'Payment terms: 14 days', '30 jours net', 'Zahlungsziel 14 Tage'). */
export const NET_DAYS = /\bnet\s*(\d{1,3})\b/i;
export const TERMS_LABEL = /\b(?:terms|payment|zahlungs\w*|zahlbar|conditions|paiement|pago|plazo|termin|within|innerhalb|sous)\b/i;
export const EARLY_DISCOUNT = /\b(?:skonto\p{L}*|discount|escompte|sconto|descuento|korting|rabat|desconto)\b/iu;
// 'kommt in Verzug, wenn er nicht innerhalb von 30 Tagen nach Fälligkeit …', 'interest on late payment after 30 days': a default's days, not the terms.
export const LATE_PAYMENT = /\b(?:verzug\w*|mahn\w*|late\s+(?:payment|fee)s?|overdue|interest|zinsen|retard|p[ée]nalit[ée]s?|morosi\p{L}*|demora|nach\s+f[äa]lligkeit|after\s+(?:the\s+)?due\s+date)\b/iu;
export const TERM_DAYS = /\b(\d{1,3})\s*(?:days?|tagen?|jours|d[ií]as|dni)\b/i;
