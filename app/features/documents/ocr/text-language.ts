// The language of a text read by OCR, from its common words (decision 096).
// The first reading is in English (`eng`), which drops accents and misreads
// some letters, so the words are compared without their accents ("Menge",
// "zaplaty", "numero", "facture") and only words that survive an English
// reading are listed: each language's short function words and the labels of
// invoices, receipts and statements. One pass over the words, a Set lookup
// each: linear in the text, a few milliseconds for a page. Pure: shared by the
// browser's OCR and the extraction bench.

/** tesseract.js's language codes, for the languages whose data public/ocr/lang/ serves. */
export type OcrLanguage = 'eng' | 'deu' | 'fra' | 'spa' | 'ita' | 'por' | 'nld' | 'pol';

/** A language's model with English's ('deu+eng': English kept for the words every invoice has), or English alone. */
export const withEnglish = (language: OcrLanguage): string => (language === 'eng' ? 'eng' : `${language}+eng`);

/** The non-English languages read with their own model. */
export const OCR_LANGUAGES: readonly OcrLanguage[] = ['deu', 'fra', 'spa', 'ita', 'por', 'nld', 'pol'];

// Words of each language, written without accents. A word two languages share
// ("de", "la", "total") counts for both: the other words decide. No word of
// one letter: OCR reads specks and rules as "a", "i", "e".
const WORDS: Record<OcrLanguage, string> = {
  eng: 'the and of to for with from this that is are be your our you we by on at invoice bill date due amount total subtotal tax quantity qty price description item items unit paid payment balance number order terms thank customer ship shipping account please receipt',
  deu: 'und der die das den dem des ein eine einer mit von fur zu im ist bei auf oder nicht sie wir ihr ihre bitte rechnung rechnungsnummer rechnungsdatum datum betrag gesamt gesamtbetrag summe zwischensumme mwst ust umsatzsteuer steuer netto brutto menge einzelpreis preis anzahl artikel beschreibung bezeichnung position pos kunde kundennummer lieferung leistung zahlbar zahlung bankverbindung tage vielen dank euro gmbh strasse str steuernummer lieferdatum leistungsdatum rechnungsbetrag endbetrag quittung beleg',
  fra: 'le la les de des du et en un une pour avec sur par au aux est vous nous votre facture date montant total tva ht ttc quantite prix unitaire designation description reference client numero paiement echeance reglement net payer remise livraison commande sarl rue merci taux adresse',
  spa: 'el la los las de del en con para por un una su es factura fecha importe total iva base imponible cantidad precio unitario descripcion concepto cliente numero pago vencimiento subtotal forma calle gracias impuesto nif cif',
  ita: 'il lo la le gli di del della dei delle in con per un una da al alla che fattura data importo totale imponibile iva quantita prezzo unitario descrizione cliente numero pagamento scadenza subtotale imposte dovuto via grazie partita codice fiscale aliquota',
  por: 'os as de do da dos das em com para por um uma no na ao que fatura factura data valor total iva imposto quantidade preco unitario descricao cliente numero pagamento vencimento subtotal liquido montante devido contribuinte nif morada obrigado rua taxa',
  nld: 'de het een en van voor met op in te is aan bij uw wij ons niet factuur factuurnummer factuurdatum datum bedrag totaal subtotaal btw aantal prijs omschrijving klant betaling vervaldatum betalen te straat bedankt excl incl',
  pol: 'na do od dla nie jest oraz po za faktura vat data sprzedazy wystawienia nabywca sprzedawca kwota razem suma netto brutto ilosc cena jednostkowa nazwa towaru uslugi platnosci termin zaplaty zaptaty sposob przelew slownie stawka podatek wartosc nip ul sp zoo',
};

const LEXICON: ReadonlyMap<string, readonly OcrLanguage[]> = (() => {
  const map = new Map<string, OcrLanguage[]>();
  for (const [language, words] of Object.entries(WORDS) as [OcrLanguage, string][]) {
    for (const word of new Set(words.split(' '))) map.set(word, [...(map.get(word) ?? []), language]);
  }
  return map;
})();

/** The fewest words of a language a text needs before it is read as that language. */
export const MIN_WORDS = 4;
/** How many times the runner-up's words the detected language must have. */
export const CLEAR_RATIO = 1.5;

/** Words without accents, lower case: "Größe" → "grosse", "zapłaty" → "zaplaty". */
function bareWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ł/g, 'l')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/** Each language's count of common words in `text`. */
export function languageScores(text: string): Record<OcrLanguage, number> {
  const scores = { eng: 0, deu: 0, fra: 0, spa: 0, ita: 0, por: 0, nld: 0, pol: 0 };
  for (const word of bareWords(text)) for (const language of LEXICON.get(word) ?? []) scores[language] += 1;
  return scores;
}

/**
 * The language `text` is clearly written in: the one with the most common
 * words, at least MIN_WORDS of them and CLEAR_RATIO times the runner-up's;
 * 'eng' when English leads, null when nothing is clear (too little text, two
 * languages alike).
 */
export function detectLanguage(text: string): OcrLanguage | null {
  const ranked = (Object.entries(languageScores(text)) as [OcrLanguage, number][]).sort((a, b) => b[1] - a[1]);
  const [[best, count], [, second]] = ranked as [[OcrLanguage, number], [OcrLanguage, number]];
  if (count < MIN_WORDS || count < second * CLEAR_RATIO) return null;
  return best;
}
