// The labels of a document's amounts (its total, its net, its tax) in the
// supported languages, and what looks like them but is not (payment terms, a
// VAT number, a page's number). The invoice rules (extract-fields.ts) and the
// line tables (line-items.ts) both stop or start at them.

/** What is still to pay after advances: the total only when nothing better labels one. */
export const AMOUNT_DUE = /\b(?:total\s+due|amount\s+due|balance\s+due|total\s+amount\s+due|balance|zahlbetrag|net\s+[àa]\s+payer|solde\s+[àa]\s+payer|restbetrag|te\s+betalen|(?:pozosta[łl]o|zosta[łl]o)\s+do\s+zap[łlt]aty|amount\s+payable|total\s+payable)\b/i;
export const TOTAL_STRONG = /\b(?:grand\s+total|total\s+due|amount\s+due|balance\s+due|total\s+amount\s+due|total\s+payable|amount\s+payable|total\s+\(?incl|total\s+[^\d\s]{0,3}\s*incl|total\s+to\s+pay|due\s+payable|total\s+gross(?:\s+amount)?|gesamtbetrag(?!\s+der)|rechnungsbetrag|endbetrag|endsumme|bruttosumme|brutto|summe\s+(?:inkl|gesamt)|montant\s+total|net\s+[àa]\s+payer|total\s+(?:net\s+)?ttc|importe\s+total|total\s+a\s+pagar|totale\s+(?:fattura|documento|da\s+pagare)|totaal(?!\s+(?:ex|excl|exclusief|btw)\b)(?:\s+te\s+betalen)?|te\s+betalen|razem\s+do\s+zap[łlt]aty|do\s+zap[łlt]aty|valor\s+total|total\s+a\s+pagar|invoice\s+total|total\s+invoice(?:\s+amount)?|totaal\s+(?:incl|bedrag)|(?:razem|warto[śs][ćc]|kwota)\s+brutto|montant\s+ttc|gesamtsumme|rechnungsendbetrag|totale\s+(?:complessivo|generale)|importe\s+a\s+pagar|total\s+(?:geral|do\s+documento|factura|fatura)|sum\s+[åa]\s+betale|maksettava(?:\s+yhteens[äa])?|att\s+betala|at\s+betale|importo\s+dovuto|montante\s+devido|pre[çc]o\s+total)\b|(?:^|\s)[åÅ]\s+betale\b/i;
export const TOTAL_PLAIN = /\b(?:total|summe|totale?)\b|(?<!\p{L})yhteens[äa](?!\p{L})/iu;
export const NOT_TOTAL = /\b(?:sub\s*-?\s*total|sous\s*-?\s*total|total\s+l[íi]quido|total\s+(?:excl|net(?!\s+ttc)|before|ht\b|tax|vat|without|amount\s+(?:of\s+lines|without))|net\s+total|total\s+(?:qty|quantity|items|hours|time|weight)|zwischensumme|nettobetrag|total\s+hors|gesamtbetrag\s+der|summe\s+netto|ohne\s+ust|totaal\s+ex(?:cl)?\b)/i;
export const SUBTOTAL_LABEL = /\b(?:sub\s*-?\s*total|sous\s*-?\s*total|net\s+(?:amount|total)|total\s+(?:excl\.?|excluding|before\s+tax|net|ht)|total\s+(?:amount\s+)?without\s+(?:vat|tax)|zwischensumme|nettobetrag|netto|summe\s+ohne|ohne\s+ust|total\s+hors\s+taxes?|base\s+imponible|op(?:\.|eraciones)\s+gravadas|imponibile|totaal\s+ex(?:cl)?\b|subtotaal|razem\s+netto|neto|excl\.?\s+(?:btw|vat|tax|tva)|bedrag\s+excl|montant\s+ht|(?:warto[śs][ćc]|kwota)\s+netto|totale\s+imponibile|total\s+s\/\s*iva|base\s+tribut[áa]vel|total\s+l[íi]quido|subtotale|pre[çc]o\s+l[íi]quido|taxable\s+(?:value|amount)|amount\s+before\s+tax|net+\s+of\s+tax|nettosumme|summe\s+netto|suma\s+bez\s+podatku|veroton(?:\s+(?:hinta|yhteens[äa]))?|mva-?\s*grunnlag|momsgrundlag|underlag\s+f[öo]r\s+moms)\b/i;
/** 'Zahlbar innerhalb 30 Tagen netto': payment terms, not a net amount; nor one rate's base ('158,88 EUR Netto zzgl. MwSt. 7%  11,12 EUR'). */
export const NOT_SUBTOTAL = /\b(?:zahlbar|innerhalb|tagen?|days|jours|skonto)\b|\d\s*(?:eur\s*|€\s*)?netto\s+zzgl\b/i;
/** The labels of a document's tax total, looked for before any line that merely names the tax. */
export const TAX_TOTAL_LABEL = /\b(?:steuerbetrag|ust\.?\s+gesamt|mwst\.?\s+gesamt|vat\s+total|tax\s+total|total\s+(?:vat|tax(?:es)?|tva|iva|btw|impuestos?)(?:\s+amount)?|zuz[üu]gl\.?\s+(?:ust|mwst)|montant\s+(?:de\s+la\s+)?tva|totale\s+iva|btw\s+bedrag|kwota\s+vat|total\s+do\s+iva|(?:vat|tax|gst)\s+amount|btw\s+(?:totaal|bedrag)|totaal\s+btw|(?:warto[śs][ćc]|razem|suma)\s+vat|total\s+iva|valor\s+(?:do\s+)?iva|totale\s+imposta|imposta|mwst\.?-?\s*betrag|mehrwertsteuer\s+gesamt|kwota\s+podatku|^\s*(?:included|incl\.?)\s+(?:vat|tax|gst)|^\s*impost[eo](?=\s*[€\d]))\b/i;
export const TAX_LABEL = /\b(?:vat|tax|gst|hst|sales\s+tax|mwst|ust|umsatzsteuer|mehrwertsteuer|tva|iva|btw|moms|mva|pdv|dph|impuestos?|alv|igv)\b/i;
export const NOT_TAX_AMOUNT = /\b(?:vat|tax|gst|btw|tva|iva|mwst|ust)\s*-?\s*(?:id|no|number|nummer|numero|reg|registration|nr|#|n°|intracom\w*)|\bn[°º]\s*(?:tva|iva)\b|\btotal\s+(?:incl|including|with)|\b(?:excl|excluding|before|ohne|without|hors|sans|netto|brutto)\b|ust\.?-?\s*id|\bTIN\b|\bsumme\b|\bp\.\s?iva\b|\bpartita\s+iva\b|\b(?:codice|identificativo)\s+fiscale\b|\b(?:nif|nip|cnpj)\b|\b(?:mva|moms)-?\s*(?:grunnlag|grundlag)\b|\bunderlag\s+f[öo]r\s+moms\b|\b(?:tax|vat)\s+exempt|\bexempt\b|\bsteuerfrei|\bexon[ée]r/i;

/** A page's number ('Strona 1 z 1', 'Page 2 of 4', OCR's 'Strona1z1') is no amount. */
export const PAGE_MARK = /\b(?:page|seite|strona|pagina|p[áa]gina|blatt|folha)\s*\d+(?:\s*(?:of|von|z|de|di|sur|\/)\s*\d+)?/giu;

/** A tax rate on a row ('19,0%', 'Tax 15%', not the '19%' of '119%'): its number in the first group. */
export const RATE = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?)\s?%/;

/** The rate's number, in percent ('5,5 %' → 5.5). */
export const rateOf = (match: RegExpExecArray) => Number(match[1].replace(',', '.'));
