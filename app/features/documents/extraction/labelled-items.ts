// Line items printed as blocks of labelled lines, one field a line
// ('Descrizione bene/servizio: Benzina S.Pb 10PPM', 'Quantità: 4000.00000000',
// 'Valore unitario: 1.35580114', 'Valore totale: 5423.20456'), as the Italian
// SdI's own stylesheet renders a FatturaPA and some forms list goods. Read only
// where no table was found, and only blocks that give a quantity and an amount
// as well as the description (a document's lone 'Description:' is no item).
import { amountsIn } from './amounts.ts';
import type { LineItem } from './fields.ts';

const DESCRIPTION_LABEL = /^(?:descrizione(?:\s+bene\/servizio)?|description|beschreibung|bezeichnung|d[ée]signation|descripci[óo]n|descri[çc][ãa]o|omschrijving|opis|nazwa)\s*:\s*(\S.*)$/iu;
const QUANTITY_LABEL = /^(?:quantit[àaée]|quantity|qty|menge|anzahl|cantidad|quantidade|aantal|ilo[śs][ćc])\s*:\s*(.+)$/iu;
const PRICE_LABEL = /^(?:valore\s+unitario|prezzo\s+unitario|unit\s+price|einzelpreis|prix\s+unitaire|precio\s+unitario|pre[çc]o\s+unit[áa]rio|prijs\s+per\s+eenheid|cena\s+jednostkowa)\s*:\s*(.+)$/iu;
const AMOUNT_LABEL = /^(?:valore\s+totale|prezzo\s+totale|importo|(?:line\s+)?total|amount|gesamt(?:preis|betrag)?|betrag|montant|importe|bedrag|totaal|warto[śs][ćc])\s*:\s*(.+)$/iu;
/** The lines after a description that its block may hold. */
const BLOCK_LINES = 8;

const valueOf = (label: RegExp, text: string) => {
  const match = label.exec(text);
  return match ? (amountsIn(match[1])[0] ?? null) : null;
};

/** The items of the labelled blocks of `lines`, at most 500; each line is looked at by at most one block's window. */
export function labelledItems(lines: readonly { text: string }[]): LineItem[] {
  const items: LineItem[] = [];
  for (let i = 0; i < lines.length && items.length < 500; i += 1) {
    const description = DESCRIPTION_LABEL.exec(lines[i].text.trim())?.[1]?.trim();
    if (!description) continue;
    let [quantity, price, amount]: (string | null)[] = [null, null, null];
    let j = i + 1;
    for (; j < Math.min(lines.length, i + 1 + BLOCK_LINES) && !DESCRIPTION_LABEL.test(lines[j].text.trim()); j += 1) {
      const text = lines[j].text.trim();
      quantity ??= valueOf(QUANTITY_LABEL, text);
      price ??= valueOf(PRICE_LABEL, text);
      amount ??= valueOf(AMOUNT_LABEL, text);
    }
    if (quantity !== null && amount !== null) items.push({ description, quantity, unit_price: price, amount: Number(amount).toFixed(2) });
    i = j - 1;
  }
  return items;
}
