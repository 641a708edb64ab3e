// The labels of a document's own references (its invoice's, its order's, its
// quote's number), in the supported languages: each a list of regex sources,
// one per way documents write the label, built into one pattern.

/** The words that title an invoice or a credit note, in the supported languages. */
const INVOICE_WORD = '(?:invoice|\\p{L}*rechnung|gutschrift|facture|avoir|factura|fattura|factuur|faktura(?:\\s+vat)?|fatura|nota\\s+fiscal|nota\\s+de\\s+(?:cr[ée]dito|d[ée]bito)|credit\\s+note)';
export const INVOICE_LABEL = new RegExp(
  [
    '\\b(?:tax\\s+)?invoice\\s*(?:no\\.?|number|num\\.?|nr\\.?|#|n°|id|ref(?:erence)?)',
    '\\binvoice\\s*:',
    // Finnish: 'Laskun nro', 'Laskun numero', 'Laskunumero'.
    '\\blasku(?:n\\s+)?(?:nro|numero)',
    '\\p{L}*rechnungs?\\s*-?\\s*(?:nr\\.?|nummer|#)',
    `(?<!\\p{L})${INVOICE_WORD}\\s*(?:n[°º]\\.?|no\\.?|nr\\.?|num[ée]ro|n[uú]mero|numer|nummer|#)`,
    '\\b(?:beleg|factuur|fattura|faktury)\\s*-?\\s*(?:nr\\.?|nummer|numer|n\\.)',
    '\\binv\\s*#',
    // The number's word first: 'Nr faktury', 'Número de factura', 'N° de facture', 'Numero fattura', 'Nº da fatura'.
    `(?<!\\p{L})(?:nr\\.?|no\\.?|n[°º]\\.?|n\\.[°º]|num[ée]ro|n[uú]mero|numer|nummer|number)\\s+(?:(?:de|da|do|della|van)\\s+(?:la\\s+)?)?(?:faktury|fattura|facture|factura|fatura|factuur|invoice|nfs-?e|nf-?e)\\b`,
    // 'Fattura n. 123', 'Fatura n.º FT 2024/12'.
    `(?<!\\p{L})${INVOICE_WORD}\\s+n\\.\\s*[°º]?(?=\\s*[A-Z]{0,5}\\s?\\d)`,
    // A Mexican CFDI's 'Folio' (its 'Folio fiscal' is the tax authority's UUID, not the number).
    '\\bfolio\\b(?!\\s+fiscal)',
    // Bill and document numbers: 'Bill No', 'Document No' (a receipt's number is not an invoice number).
    '\\b(?:bill|document|doc)\\s*(?:no\\.?|number|nr\\.?|#)',
    // 'Numero documento: 001' (a FatturaPA invoice's rendering names its number so).
    '\\bnumero\\s+documento(?=\\s*:)',
    // The number after 'Nr.' in the title's own sentence: 'Rechnung des Versicherers Nr. 01.234.567.8-2018-1 vom'.
    `(?<!\\p{L})${INVOICE_WORD}(?:\\s+\\(?(?!(?:vom|du|del|van|of|dated)\\b)\\p{L}+\\)?|\\s+\\(\\d{1,4}\\)){1,3}\\s+(?:nr\\.?|no\\.?|n[°º]\\.?|nummer|number|numer)(?=\\s*:?\\s+\\d)`,
    // A title followed by its number: 'Facture FA-2017-0010', 'Rechnung R0005532486', 'Invoice 103767'.
    `(?<!\\p{L})${INVOICE_WORD}(?=\\s+(?:[A-Z]{1,5}-){0,3}[A-Z]{0,5}-?\\d|\\s+[A-Z]{2,5} \\d{1,6}\\/\\d{2,4}(?!\\S))`,
  ].join('|'),
  'iu',
);
/** The words that name an order, the buyer's ('Bestellung', 'Encomenda', 'Ordine di acquisto'). */
export const ORDER_WORD = '(?:purchase\\s+order|order|bestellung|commande|pedido|encomenda|ordine(?:\\s+di\\s+acquisto)?|zam[óo]wienie)';
export const ORDER_LABEL = new RegExp(
  [
    '\\b(?:purchase\\s+order|p\\.?\\s?o\\.?)\\s*(?:no\\.?|number|nr\\.?|#|n°|ref)?(?=\\s*[:#]|\\s+[A-Z]{0,5}-?\\d)',
    '\\b(?:your\\s+)?order\\s*(?:no\\.?|number|#|id|ref(?:erence)?)',
    // 'Your order AB321', 'Bestellung : 2018-471331', 'Bestellung Nr. ORDER84359': an order word followed by its reference.
    '\\byour\\s+order(?=\\s+[A-Z]{0,8}-?\\d)',
    '\\b(?:ihre\\s+)?bestellung(?=\\s*:|\\s+nr\\.?\\s)(?:\\s+nr\\.?)?',
    '\\b(?:bestell|auftrags|order|bestel)\\s*-?\\s*(?:nr\\.?|nummer)',
    '\\binkoop\\s*order(?:\\s*(?:nr\\.?|nummer))?(?=\\s*:)',
    '\\bbon\\s+de\\s+commande\\s*(?:n°|no\\.?)?|\\b(?:n[°º]\\s+de\\s+)?commande\\s*(?:n[°º])?(?=\\s*:)',
    '\\b(?:numero\\s+)?ordine\\s*(?:n\\.|nr\\.?|n[°º])|\\bnr\\.?\\s+zam[óo]wienia|\\b(?:pedido|encomenda)\\s*(?:n[°º.]|n[uú]mero)?(?=\\s*:)|\\bn[uú]mero\\s+(?:de|do|da)\\s+(?:pedido|encomenda)',
    // An order named by whom, then its number: 'Encomenda ABC n° 12345', 'Ordine di acquisto di ABC #12988', 'Order from Acme No. 77'
    // (words without a colon or a digit between, so 'Order date: 12/03  Invoice #5' is not one).
    `(?<!\\p{L})${ORDER_WORD}(?:\\s+[^\\s:\\d#]+){1,3}?\\s*(?:n[°º]\\.?|#|no\\.|nr\\.)(?=\\s*[A-Z]{0,5}-?\\d)`,
  ].join('|'),
  'iu',
);
export const QUOTE_LABEL = /\b(?:quote|quotation|estimate|offer|proposal)\s*(?:no\.?|number|nr\.?|#|n°|ref(?:erence)?)|\b(?:quote|quotation|estimate)\s*:|\bangebots?\s*-?\s*(?:nr\.?|nummer)|\bdevis\s*(?:n°|no\.?)|\bnum[ée]ro\s+de\s+devis\b|\bpresupuesto\s*(?:n[°º.])/i;
