// Line items: the table whose header names a description and a quantity or an
// amount, in any supported language, read row by row over page breaks. A row's
// quantity and price are the two numbers whose product is its amount; what a
// row lacks (its name, its amount) may be on the lines around it.
import { amountsIn, multipliesTo } from './amounts.ts';
import { PAGE_MARK, RATE, rateOf, SUBTOTAL_LABEL, TAX_LABEL, TAX_TOTAL_LABEL, TOTAL_PLAIN, TOTAL_STRONG } from './amount-labels.ts';
import type { LineItem } from './fields.ts';
import { startsWith, type Line } from './text-lines.ts';

export const DESCRIPTION_HEAD = /^(?:description|item|items|product|service|services|article|details|particulars|bezeichnung|beschreibung|leistung|d[ée]signation|descripci[óo]n|concepto)$/i;
// A line-item table's header names a description and a quantity or an amount, in any supported language.
export const DESCRIPTION_WORD = /(?<![\p{L}])(?:description|item(?:\s+name)?|product|produkt|service|article|artikel(?:bezeichnung|beschreibung)?|\p{L}*beschreibung|\p{L}*bezeichnung|details|particulars|bezeichnung|beschreibung|leistung|d[ée]signation|descripci[óo]n|concepto|art[íi]culo|descrizione|omschrijving|opis|nazwa(?:\s+towaru)?|us[łl]uga|towar|descri[çc][ãa]o|produto)(?![\p{L}])/iu;
export const QUANTITY_WORD = /(?<![\p{L}])(?:qty|quantity|menge|anzahl|qt[ée]|quantit[ée]|quantit[àa]|cantidad|aantal|ilo[śs][ćc]|quantidade|qtd|hours|units?|amount)(?![\p{L}])/iu;
export const LINE_AMOUNT_WORD = /(?<![\p{L}])(?:amount|total|line\s+total|betrag|gesamt(?:betrag)?|summe|netto|montant|prix\s+ht|importe|importo|bedrag|totaal|warto[śs][ćc]|valor|sum|line\s+amount)(?![\p{L}])/iu;

/** Whether a line names a line-item table's columns: a description's and a quantity's or an amount's. */
/** Every tax rate in a text ('10% VAT', '19,0 %'). */
const RATES = new RegExp(RATE.source, 'g');

export const namesItemColumns = (text: string) => DESCRIPTION_WORD.test(text) && (QUANTITY_WORD.test(text) || LINE_AMOUNT_WORD.test(text));

/** A currency's sign or code in a cell ('$', 'EUR', the sol's 'S/', TeX's euro without its font: '15,00 e'). */
const CURRENCY_MARK = /[₹$€£]|\bS\/|\b[A-Z]{3}\b|(?<=\d[.,]\d{2}\s?)e\b/g;

/** A row's cell as a number: an amount with its currency, or a quantity with its unit ('20 Stk', '5 Unit(s)'); null for text and percentages. */
export function cellNumber(cell: string): string | null {
  // A quantity with its unit that shares its cell with the tax rate ('20 Stk 19 % VAT (S)'): the quantity.
  const lead = /^(\d+(?:[.,]\d+)?\s?(?:stk|st|pcs|pc|units?|unit\(s\)|piece|pieces|kg|h|hrs?|std|x)\.?)\s+\d+(?:[.,]\d+)?\s?%/i.exec(cell);
  if (lead) return amountsIn(lead[1])[0] ?? null;
  if (/%/.test(cell)) return null;
  const bare = cell.replace(CURRENCY_MARK, '').trim();
  // (The Swiss group their thousands with an apostrophe: '1'920.00'.)
  if (!/^[-(]?\s*\d[\d.,\u00a0 '’]*\)?\s*(?:[\p{L}().]{1,12})?$/u.test(bare)) return null;
  const amount = amountsIn(bare)[0];
  return amount === undefined ? null : cell.trim().startsWith('(') ? `-${amount}` : amount;
}

/** A cell holding several numbers, or a rate beside an amount: text extraction ran a row's cells together. */
const MIXED_CELL = /\d\s?%?\s+\|\s|\d\s?%\s+\S*\d|\d[.,]\d{2}\s?[€$£]?\s+\S*\d|\p{L}{3,}\s+[€$£]?\d+(?:[.,]\d+)?(?:\s?[€$£])?$|\p{L}{3,}\s+\d+(?:[.,]\d+)?\s+\p{L}{1,12}\.?$/u;

/** A table's ruled line as OCR reads it between two cells ('Sconto |Imponibile', '€500,00 | 5.00%'). */
const RULE = /\s+\|\s*|\s*\|\s+/;

/** A row's cells split finer: numbers and rates apart, a trailing quantity off its description ('Camera Matrimoniale 1'). */
function finerCells(cells: string[]): string[] {
  // OCR reads a table's ruled lines as '|' ('€500,00 | 5.00% |T'): they part cells.
  return cells.flatMap((ruled) => ruled.split(RULE).filter(Boolean)).flatMap((cell) => {
    // A unit and the price after it ('bouteilles €1,20', 'services 25,00 €') are two cells too.
    const trailing = /^(.*\p{L}{3,}.*?)\s+([€$£]?\d+(?:[.,]\d+)?(?:\s?[€$£])?)$/u.exec(cell);
    if (trailing && !/\d\s?%|\d[.,]\d{2}\s/.test(trailing[1])) return [trailing[1], trailing[2]];
    // A description run together with its count and unit ('1 Développement logiciel 20 heures'): the count and its unit
    // are a cell of their own, not two more words of the description.
    const counted = /^(.*\p{L}{3,}.*?)\s+(\d+(?:[.,]\d+)?\s+\p{L}{1,12}\.?)$/u.exec(cell);
    if (counted) return [counted[1], counted[2]];
    // Only a cell of two or more numbers ('€90,00 20% €1.800,00', 'services €120,00 20% €600,00') is cut into its words.
    if (cell.split(/\s+/).filter((token) => /^[€$£(]?\d/.test(token)).length < 2) return [cell];
    // '100,00 € 10,0% 115,00 €': tokens, a currency sign kept with its amount, and words kept together ('1 2016-04-03 Arc
    // reactor': the name is 'Arc reactor', not its longest word).
    const word = (token: string | undefined) => token !== undefined && /^\p{L}[\p{L}.,'’-]*$/u.test(token);
    return cell.split(/\s+/).reduce<string[]>((out, token, i, tokens) => {
      if ((/^[€$£]$/.test(token) || (word(token) && word(tokens[i - 1]))) && out.length > 0) out[out.length - 1] += ` ${token}`;
      else out.push(token);
      return out;
    }, []);
  });
}

/** Whether a row's numbers hold a quantity and a price whose product is its last amount. */
function hasProductPair(cells: string[]): boolean {
  const values = cells.map(cellNumber).filter((n): n is string => n !== null).map(Number);
  if (values.length < 3) return false;
  const amount = values[values.length - 1];
  const others = values.slice(-9, -1);
  return others.some((a, i) => others.slice(i + 1).some((b) => multipliesTo(a, b, amount)));
}

/**
 * The line items of the first table whose header names a description and a
 * quantity or an amount. Each row's amount is its last number; its quantity
 * and unit price the two other numbers whose product is that amount (the
 * cross-check that tells them from a tax rate, a position or a code), else the
 * number under the quantity heading. Rows run until a total's line; lines
 * between them (a description's second line, a page's header) are stepped
 * over, at most eight in a row, so a table goes on over a page break.
 */
/** A unit a count is written with ('20 Stk', '3 h', '5 Unit(s)'), not the item's own word ('4 chairs'). */
const UNIT_WORD = /^(?:stk|st|stück|pcs?|pieces?|pce|pz|szt|sztuk|un|uds?|unit(?:s|\(s\))?|unités?|einheit(?:en)?|ea|each|x|h|hrs?|hours?|std|stunden?|tage?|days?|jours?|kg|g|t|l|ml|m|m2|m²|m3|km|pkg|pack|set|paar|pair)\.?$/i;

/** A discount's column heading ('Sconto', 'Rabatt', 'Disc.'). */
const DISCOUNT_WORD = /(?<!\p{L})(?:discount|disc\.|sconto|rabatt|remise|desconto|descuento|korting|rabat|dto\.)(?!\p{L})/iu;

/** A table's first heading that numbers its rows ('#', 'Pos.', 'Nr.', 'Item'). */
const POSITION_HEAD = /^(?:#|pos\.?|position|nr\.?|no\.?|n[°º]|lp\.?|item)$/i;

/** An article's code: capitals and digits, no space ('TB100A4', 'ARNR2', '4012345001235'). */
const ARTICLE_CODE = /^(?=.*\d)[A-Z0-9-]{5,}$/;

/** Which of a table's quantity and price columns comes first, by its header; null when it names not both. */
type ColumnOrder = 'quantity-first' | 'price-first' | null;
const PRICE_WORD = /(?<!\p{L})(?:unit\s+(?:price|rate|cost)|price|rate|preis|prix|precio|valor\s+unitario|prezzo|prijs|cena|pre[çc]o|tarif)(?!\p{L})/giu;

function columnOrder(header: string): ColumnOrder {
  const priceAt = header.search(PRICE_WORD);
  // ('Unit Price' and 'Amount' are no count's heading.)
  const quantityAt = header.replace(PRICE_WORD, (m) => ' '.repeat(m.length)).replace(/amount/giu, '      ').search(QUANTITY_WORD);
  if (priceAt < 0 || quantityAt < 0) return null;
  return quantityAt < priceAt ? 'quantity-first' : 'price-first';
}

/**
 * The quantity and price of a row whose amount is `values[at]` (divided by `taxFactor` when it includes its tax): two of
 * the eight numbers before it whose product it is
 * (a row is short, and a long one must not cost its square: decision 040). Of the two, the quantity is the one written
 * with a unit; else the other of a price equal to the amount (1 × 160.00); else the first, unless only the second is a
 * whole number.
 */
function productPair(values: string[], at: number, withUnit: number[], taxFactor = 1, order: ColumnOrder = null): { amount: string; quantity: string; unitPrice: string } | null {
  const amount = Number(values[at]) / taxFactor;
  const from = Math.max(0, at - 8);
  const others = values.slice(from, at).map(Number);
  for (let a = 0; a < others.length; a += 1) {
    for (let b = a + 1; b < others.length; b += 1) {
      // A cent more where the amount includes a tax rounded to cents.
      if (!multipliesTo(others[a], others[b], amount, taxFactor === 1 ? 0.01 : 0.02)) continue;
      // One of it at its price ('1,00  4,23 Mese  4,23'): the 1 is the count, whatever unit the price is written with.
      const single = others[a] === 1 && others[b] === amount ? true : others[b] === 1 && others[a] === amount ? false : null;
      // A count written with its unit is the count; else the header's order of the two columns says which is which; else a
      // whole number is the count.
      const first =
        single ??
        (withUnit.includes(others[a])
          ? true
          : withUnit.includes(others[b])
            ? false
            : order !== null
              ? order === 'quantity-first'
              : others[b] === amount || (others[a] !== amount && (Number.isInteger(others[a]) || !Number.isInteger(others[b]))));
      return { amount: values[at], quantity: values[from + (first ? a : b)], unitPrice: values[from + (first ? b : a)] };
    }
  }
  return null;
}

/**
 * Whether a subtotal is a group's inside the table: a heading of words alone follows it, then a row whose quantity × price
 * is its amount ('Sous-total (HT) : 55,00 e' over 'Services' over '03  Service 1  1  10,00 e  10,00 e').
 */
function groupGoesOn(lines: Line[], at: number): boolean {
  const [heading, row] = [lines[at + 1], lines[at + 2]];
  if (!heading || !row || heading.cells.length !== 1 || /\d/.test(heading.text) || heading.text.length > 40) return false;
  const values = row.cells.map(cellNumber).filter((n): n is string => n !== null);
  return values.length >= 2 && productPair(values, values.length - 1, []) !== null;
}

/** The one amount with cents of a line of codes and an amount ('4012345001235  198,00'): a row's amount that wrapped. */
function wrappedAmount(line: Line | undefined): string | null {
  if (!line || line.cells.length > 3 || line.cells.some((c) => /\p{L}{3}/u.test(c) && !ARTICLE_CODE.test(c))) return null;
  const amounts = line.cells.filter((c) => /\d[.,]\d{2}$/.test(c));
  return amounts.length === 1 ? cellNumber(amounts[0]) : null;
}

/** A row of numbers whose quantity × price is its amount (the last number): that pair, else null. */
function productRow(values: string[], cells: string[], numbers: (string | null)[]): (Omit<LineItem, 'description'> & { word: string | null }) | null {
  const amount = Number(values[values.length - 1]).toFixed(2);
  const others = values.slice(-9, -1);
  // The quantity is the number written with its unit ('50 Stk'), the price another number before the amount.
  const quantityCell = cells.findIndex((c, i) => numbers[i] !== null && /\d\s*\p{L}/u.test(c) && !/%/.test(c));
  if (quantityCell < 0) return null;
  const quantity = numbers[quantityCell]!;
  const price = others.find((v) => v !== quantity && multipliesTo(Number(quantity), Number(v), Number(amount)));
  const word = /^\S+\s+(\p{L}[\p{L}\s.-]*)$/u.exec(cells[quantityCell])?.[1]?.trim() ?? null;
  return price === undefined ? null : { quantity, unit_price: price, amount, word };
}

/** The words a line adds to the description above it: its cells of words, not codes ('TB100A4', 'ARNR2'); null for none or long text. */
function continuation(cells: string[]): string | null {
  if (cells.length === 0 || cells.length > 3) return null;
  const words = cells.filter((c) => /\p{L}/u.test(c) && !ARTICLE_CODE.test(c) && !/^\(.*\)$/.test(c));
  if (words.length === 0 || words.some((w) => w.length > 60)) return null;
  return words.join(' ');
}

export function findLineItems(lines: Line[]): LineItem[] | null {
  for (let h = 0; h < lines.length; h += 1) {
    const head = lines[h].text;
    if (!namesItemColumns(head)) continue;
    // OCR gives a scan's lines with single spaces, no column gaps ('Pos Art.-Nr Menge Bezeichnung Von Bis Preis Betrag'): a
    // header of three to twelve words, a description's and a quantity's or amount's among them, is read word by word, and so
    // are its rows that have no gaps either.
    // A header whose columns OCR parted by ruled lines ('Descrizione | Quantità | Totale'): those are its cells.
    const ruled = lines[h].cells.flatMap((cell) => cell.split(RULE)).filter(Boolean);
    const headWords = ruled.length < 3 ? head.split(/\s+/) : null;
    const spaced =
      headWords !== null &&
      headWords.length >= 3 &&
      headWords.length <= 12 &&
      headWords.some((w) => DESCRIPTION_WORD.test(w)) &&
      headWords.some((w) => QUANTITY_WORD.test(w) || LINE_AMOUNT_WORD.test(w));
    // A table of two columns, what and how much ('Description  Amount'): each row one of it at its amount.
    const twoColumns = ruled.length === 2 && DESCRIPTION_WORD.test(ruled[0]) && LINE_AMOUNT_WORD.test(ruled[1]);
    if (ruled.length < 3 && !spaced && !twoColumns) continue;
    const headCells = spaced && headWords ? headWords : ruled;
    const quantityColumn = headCells.findIndex((c) => QUANTITY_WORD.test(c) && !LINE_AMOUNT_WORD.test(c.replace(/^amount$/i, '')));
    const descriptionColumn = headCells.findIndex((c) => DESCRIPTION_WORD.test(c));
    const positioned = descriptionColumn > 0 && POSITION_HEAD.test(headCells[0]);
    const discounted = DISCOUNT_WORD.test(head);
    const order = columnOrder(head);
    const items: LineItem[] = [];
    let gap = 0;
    let textRun = 0;
    /** Lines read below a row of numbers alone as its item's description; null when the last row had one, or another line came between. */
    let continued: number | null = null;
    /** A line whose amount a row above took (its amount wrapped onto it). */
    let skip = -1;
    for (const [at, line] of lines.slice(h + 1).entries()) {
      if (h + 1 + at === skip) continue;
      // A header set on two or three lines ('Wartość sprzedaży' over 'netto  podatku  netto'): its words end no table.
      // So do the words under the header repeated after a page break.
      const afterHeader = at > 0 && DESCRIPTION_WORD.test(lines[h + at].text) && QUANTITY_WORD.test(lines[h + at].text);
      const headerTail = ((items.length === 0 && at < 2) || afterHeader) && !/\d/.test(line.text);
      // The header repeated after a page break ('#  Description  Qty.  Price  Total') goes on with the table; its 'Total' ends nothing.
      // (A rate in a heading is no figure: '10% VAT'.)
      if (at > 0 && namesItemColumns(line.text) && !/\d/.test(line.text.replace(RATES, ''))) continue;
      if (!headerTail && (TOTAL_PLAIN.test(line.text) || SUBTOTAL_LABEL.test(line.text) || TOTAL_STRONG.test(line.text) || TAX_TOTAL_LABEL.test(line.text))) {
        // A group's subtotal, the next group's heading and its rows below it: the table goes on.
        if (SUBTOTAL_LABEL.test(line.text) && !TOTAL_STRONG.test(line.text) && groupGoesOn(lines, h + 1 + at)) continue;
        break;
      }
      // A row whose text runs cells together ('1 Développement logiciel 20  heures  €90,00 20% €1.800,00') is read on its finer
      // cells, but only when its own cells give no quantity and price whose product is its amount and the finer ones do
      // (a number that ends a product's name, 'Office Suite Pro 2021', stays in it).
      const finer = line.cells.some((c) => MIXED_CELL.test(c)) && !hasProductPair(line.cells) ? finerCells(line.cells) : null;
      const cells = spaced && line.cells.length < 3 ? line.text.split(/\s+/) : finer && hasProductPair(finer) ? finer : line.cells;
      const numbers = cells.map(cellNumber);
      // Under the description's heading a cell is text even when it starts with a position ('1 Superdrachen' is no quantity with its unit).
      if (cells.length === headCells.length && descriptionColumn >= 0 && /\p{L}{3}/u.test(cells[descriptionColumn])) numbers[descriptionColumn] = null;
      // Under a position's heading ('#', 'Pos.') a first cell of a number and words is the position and the description run
      // together ('6 Massagem'), not a count with its word.
      if (positioned && /^\d{1,3}\s+\p{L}{3}/u.test(cells[0] ?? '')) numbers[0] = null;
      const values = numbers.filter((n): n is string => n !== null);
      const words = cells.filter((c, i) => numbers[i] === null && !/%/.test(c) && /\p{L}{2}/u.test(c));
      // A row of numbers alone whose quantity × price is its amount ('2  5,5000  50 Stk  7 %  275,00'): an item whose
      // description is set on the lines below it ('Joghurt' over 'ARNR2  Banane').
      // A description begun on the line of words right above a row of numbers alone ('Prestation de services — conseil et
      // accompagnement' over '12  600  7 200,00' over 'stratégique'), when no item above took that line as its own.
      const above: string | null = continued === null && at > 0 && !/\d/.test(lines[h + at].text) && !namesItemColumns(lines[h + at].text) ? continuation(lines[h + at].cells) : null;
      const alone = values.length >= 2 && words.length === 0 && !spaced;
      // Such a row's count needs no unit then: the description above says it is an item.
      const pairUnderWords: ReturnType<typeof productPair> = alone && above !== null && cells.length >= 3 ? productPair(values, values.length - 1, []) : null;
      const unnamed: ReturnType<typeof productRow> = alone
        ? (productRow(values, cells, numbers) ?? (pairUnderWords && { quantity: pairUnderWords.quantity, unit_price: pairUnderWords.unitPrice, amount: Number(pairUnderWords.amount).toFixed(2), word: null }))
        : null;
      if (unnamed) {
        // A count written with the item's own word ('4 chairs', not '20 Stk'): that word names it.
        const named: boolean = unnamed.word !== null && !UNIT_WORD.test(unnamed.word);
        items.push({ description: named ? unnamed.word! : (above ?? ''), quantity: unnamed.quantity, unit_price: unnamed.unit_price, amount: unnamed.amount });
        continued = named ? null : 0;
        gap = 0;
        if (items.length >= 500) break;
        continue;
      }
      if (twoColumns && cells.length === 2 && numbers[0] === null && numbers[1] !== null && words.length === 1) {
        // Its tax, discount or shipping row ends it ('Tax  $35' under 'Service B  $250').
        if (TAX_LABEL.test(cells[0]) || DISCOUNT_WORD.test(cells[0]) || /\b(?:shipping|freight|delivery|postage)\b/i.test(cells[0])) break;
        const price = Number(numbers[1]).toFixed(2);
        items.push({ description: cells[0], quantity: '1.00', unit_price: price, amount: price });
        gap = 0;
        if (items.length >= 500) break;
        continue;
      }
      if (values.length < 2 || words.length === 0) {
        // The lines of words right below a row of numbers alone name its item ('Joghurt' over 'ARNR2  Banane'): up to three,
        // each of short cells, the codes among them left out; a line without letters, with a label or a page's mark ends them.
        // (A named row's next lines are not added to its name: they are as often a note, a guest's name or a page's footer.)
        const last = items.at(-1);
        const wording = continuation(cells);
        if (last && continued !== null && continued < 3 && wording !== null && !/:/.test(line.text) && !startsWith(PAGE_MARK, line.text)) {
          last.description = `${last.description} ${wording}`.trim();
          continued += 1;
          if (values.length === 0) continue;
        } else continued = null;
        // A description that runs on over many lines of words alone (a KSeF invoice's nine) is no gap; anything else is, up to eight.
        if (cells.length === 1 && !/\d/.test(line.text) && items.length > 0 && (textRun += 1) <= 30) continue;
        gap += 1;
        if (gap > 8 && items.length > 0) break;
        continue;
      }
      gap = 0;
      textRun = 0;
      // A number written with its unit ('20 Stk', '5 Unit(s)', '3 h') is a quantity; a capital alone after it is a tax class ('1.000,00 G').
      const withUnit = cells.filter((c, i) => numbers[i] !== null && /\d\s*(?:\p{L}{2}|\p{Ll}|\()/u.test(c.replace(CURRENCY_MARK, ''))).map((c) => Number(amountsIn(c)[0]));
      // The row's amount is its last number, whose quantity and price are two numbers before it. Failing that: the number
      // before a last one that is a tax rate ('198,00  19' under 'Betrag  USt. %'), or the one amount of the next line when
      // the row's amount wrapped onto it ('9,9000  20 Stk  19 %' over '4012345001235  198,00').
      // A pair read with this row's counts and the header's order of its columns.
      const pairOf = (from: string[], at: number, taxFactor = 1) => productPair(from, at, withUnit, taxFactor, order);
      let read = pairOf(values, values.length - 1);
      const rate = Number(values[values.length - 1]);
      if (read === null && values.length >= 3 && Number.isInteger(rate) && rate >= 0 && rate <= 30) read = pairOf(values, values.length - 2);
      const below = read === null ? wrappedAmount(lines[h + 2 + at]) : null;
      if (below !== null) {
        const joined = [...values, below];
        read = pairOf(joined, joined.length - 1);
        if (read) skip = h + 2 + at;
      }
      // A row whose amount includes its tax at the rate it prints ('1,0000  100,00 21%  21,00  121,00'): quantity × price × 1.21.
      const rowRate = read === null ? RATE.exec(line.text) : null;
      // A row that prints its net and then its gross ('1  22 222,00  23%  22 222,00  27 333,06'): the net is its amount, as
      // in a table of net amounts, when the gross is the net at the row's rate.
      const net = rowRate && values.length >= 4 ? pairOf(values, values.length - 2) : null;
      if (net && Math.abs(Number(net.amount) * (1 + rateOf(rowRate!) / 100) - Number(values[values.length - 1])) <= 0.02) read = net;
      // (Its price may share a cell with the rate: the finer cells are read then.)
      const taxed = rowRate ? (finer ?? cells).map(cellNumber).filter((n): n is string => n !== null) : [];
      if (read === null && rowRate && taxed.length >= 3) read = pairOf(taxed, taxed.length - 1, 1 + rateOf(rowRate) / 100);
      // Under a discount's heading the rate may be the row's discount ('1.00  €500,00 | 5.00%  € 475,00'): quantity × price × 0.95.
      if (read === null && rowRate && discounted && taxed.length >= 3) read = pairOf(taxed, taxed.length - 1, 1 - rateOf(rowRate) / 100);
      // A row whose price and amount are alike, and no count ('Transport  Pauschal  120,00  120,00'): one of it.
      const [price, last] = values.slice(-2).map(Number);
      if (read === null && price === last && last !== 0) read = { amount: values[values.length - 1], quantity: '1.00', unitPrice: values[values.length - 2] };
      // A row's amount is money: in cents, even when the document prints more decimals ('5423.20456').
      const amount = Number(read?.amount ?? values[values.length - 1]).toFixed(2);
      let quantity: string | null = read?.quantity ?? null;
      const unitPrice: string | null = read?.unitPrice ?? null;
      const aligned = cells.length === headCells.length;
      if (quantity === null && quantityColumn >= 0 && aligned) quantity = numbers[quantityColumn];
      if (quantity === null && withUnit.length === 1) quantity = withUnit[0].toFixed(2);
      // A row read word by word: its description is the run from its first word to its last ('EZ 2 Nächte EZ - 9 - Einzelzimmer').
      const firstWord = cells.findIndex((c, i) => numbers[i] === null && /\p{L}{2}/u.test(c));
      const lastWord = cells.length - 1 - [...cells].reverse().findIndex((c, i) => numbers[cells.length - 1 - i] === null && /\p{L}{2}/u.test(c));
      const run = spaced && line.cells.length < 3 ? cells.slice(firstWord, lastWord + 1).join(' ') : null;
      // Under the description's heading an article code ('TB100A4', the heading set over two columns) is not the description.
      const underHeading = aligned && descriptionColumn >= 0 && numbers[descriptionColumn] === null && !ARTICLE_CODE.test(cells[descriptionColumn]) ? cells[descriptionColumn] : null;
      // Cells short of the header's count still line up at the left ('04/11/2008  Martello  Materiale' under 'Data  Descrizione
      // Tipo di addebito'): the word under the description's heading before the longest word, unless it is a code ('EZ').
      const leftAligned = !aligned && descriptionColumn >= 0 && numbers[descriptionColumn] === null && words.includes(cells[descriptionColumn] ?? '') && /\p{L}{4}/u.test(cells[descriptionColumn]) && !UNIT_WORD.test(cells[descriptionColumn]) && !ARTICLE_CODE.test(cells[descriptionColumn]) ? cells[descriptionColumn] : null;
      const chosen = run ?? underHeading ?? leftAligned ?? words.sort((x, y) => y.length - x.length)[0];
      const description = positioned ? chosen.replace(/^\d{1,3}\s+(?=\p{L})/u, '') : chosen;
      items.push({ description, quantity, unit_price: unitPrice, amount });
      continued = null;
      if (items.length >= 500) break;
    }
    if (items.length > 0) return items;
  }
  return null;
}
