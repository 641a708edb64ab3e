// Till receipts (point-of-sale tickets, and photos or scans of them): what the
// invoice rules of extract-fields.ts miss on them. A receipt has no labels for
// its parties and rarely a title: the shop's name heads it, its items are bare
// 'quantity description amount' rows, and below its total it prints what was
// paid and given back (Cash 50.00, CHANGE 15.54), which are not totals.
// extractFields hands its result here once, at its end (refineReceipt).
import { RATE, rateOf } from './amount-labels.ts';
import { amountsIn, multipliesTo } from './amounts.ts';
import { cents } from './cross-checks.ts';
import type { DocumentFields, LineItem } from './fields.ts';

/** A receipt's own title words ('Kassenbeleg', 'Ticket n°23', 'scontrino', 'paragon fiskalny'). */
const RECEIPT_TITLE =
  /\b(?:bon-?nr\.?|kassenbeleg|kassenbon|kassenzettel|kassabon|kassabonnetje|bonnetje|scontrino|documento\s+commerciale|paragon(?:\s+fiskalny)?|cupom(?:\s+(?:n[ãa]o\s+)?fiscal)?|till\s+receipt|sales\s+ticket|ticket\s+de\s+(?:caisse|venta|compra)|ticket\s*(?:n\s*[°º.]|no\.?|nr\.?|#|")\s*\d)/iu;

/** Between a payment's word and its amount: the means or the currency ('Rückgeld BAR EUR 2,39', 'CHANGE $ 0.00'). */
const PAID_TAIL = String.raw`\b(?:[\s:.]+(?:bar|cash|eur|usd|gbp|chf|pln|en\s+esp[eè]ces|[$€£]))*[\s:.]*[$€£]?\s?-?\d`;

/** The change given back, with its amount: only a till slip prints it. */
const CHANGE_LINE = new RegExp(String.raw`^\W{0,3}(?:change|change\s+due|r[üu]ckgeld|wechselgeld|rendu|monnaie(?:\s+rendue)?|cambio|vuelto|resto|troco|reszta|wisselgeld)${PAID_TAIL}`, 'iu');

/** Who rang the sale up or served the table ('Served by: Mitchell Admin', 'Kassierer: 3', 'Server: Ann'). */
const CASHIER = /\b(?:served\s+by|cashier|server\s*:|waiter|kassierer(?:in)?|bediener(?:in)?|es\s+bediente\s+sie|kellner(?:in)?|caissi[eè]re?|serveur|cajer[oa]|camarer[oa]|cassiere|cameriere|kasjer|kelner|operador\s+de\s+caixa)(?!\w)/i;

/** What was handed over or charged after the total: cash, a card, the bank, the change. */
const PAYMENT_LINE = new RegExp(
  String.raw`^\W{0,3}(?:geg(?:eben)?\.?\s+)?(?:change|change\s+due|cash|tendered|bank|card|credit\s+card|debit|visa|mastercard|amex|ec-?cash|kredit-?karte|r[üu]ckgeld|wechselgeld|gegeben|bar(?:geld)?|ec-?karte|girocard|karte|rendu|monnaie|esp[èe]ces|carte(?:\s+bancaire)?|cb|cambio|vuelto|efectivo|entregado|tarjeta|resto|contanti|carta|troco|dinheiro|cart[ãa]o|reszta|got[óo]wka|karta|wisselgeld|contant|pin|maestro|kartenzahlung|paid|bezahlt|pagado|pagato|pay[ée]|betaald)${PAID_TAIL}`,
  'iu',
);

/** A receipt's total line ('TOTAL $514.25', 'GESAMTSUMME 3.98 EUR', 'Totale 6,00'), not a subtotal's or the taxes'. */
const TOTAL_WORD = /\b(?:total(?:e|\s+a\s+pagar)?|totaal|summe|gesamtsumme|gesamt|zu\s+zahlen|suma|somme|importe|valor\s+total)\b/iu;
const NOT_RECEIPT_TOTAL = /\b(?:sub\s*-?\s*total|total\s+(?:tax(?:es)?|vat|items?|qty|quantity|net|excl|ht)|tax|vat|mwst|ust|tva|iva|btw|netto|nett)\b/i;

/** Where the rows of items end: the first total, subtotal, tax or count line. */
const ITEMS_END = /\b(?:total|totale|totaal|summe|gesamtsumme|subtotal|zwischensumme|sous-total|suma|somme|items?\s+count|number\s+of\s+items|anzahl\s+artikel|artikelanzahl|(?:anzahl\s+)?posten(?=\s*:?\s*\d)|nombre\s+d['’]articles|nb\.?\s+articles?|aantal\s+artikelen|n[º°]\s+(?:de\s+)?art[íi]culos|numero\s+(?:di\s+)?pezzi)\b/i;

/** A row of items: an optional count ('2 x', '1'), the item's words, its amount with cents, a currency or a tax class after it. */
const ITEM_ROW = /^(?:(\d{1,3}(?:[.,]\d{1,3})?)\s*[x×*]?\s+)?(.*\p{L}.*?)\s+(-?[$€£]?\s?\d[\d.,]*[.,]\d{2})\s*(?:[$€£]|EUR|USD|GBP|[A-Z]|(?<=\s)[1-4])?$/u;

/** A ticket's row 'description  price  x quantity  amount', the quantity run into the amount ('403,50 €  x52.017,49 €'). */
const PRICE_TIMES_ROW = /^(.*\p{L}.*?)\s+(-?\d[\d.,]*[.,]\d{2})\s*(?:€|EUR|\$|£)?\s+x\s?(?:(\d{1,3})\s+)?(-?\d[\d.,]*[.,]\d{2})\s*(?:€|EUR|\$|£)?$/u;

/** A line that heads the shop's block but names nobody ('Your logo', a web address, an address, a phone, a title). */
const NOT_A_NAME = /\b(?:logo|https?|www\.|@|tel|phone|fax|served|copyright|receipt|ticket|beleg|kassenbon|kassenbeleg|quittung|re[çc]u|ricevuta|kassenzettel|scontrino|recibo|cupom|paragon)\b|\(c\)|©|:/i;

const lastAmount = (text: string) => amountsIn(text).at(-1) ?? null;

/** Whether a document that no title word classed is a till receipt: its own title word, the change given back, or a cashier. */
export function looksLikeReceipt(lines: string[]): boolean {
  return lines.some((line) => RECEIPT_TITLE.test(line) || CHANGE_LINE.test(line)) || lines.slice(0, 15).some((line) => CASHIER.test(line)) || receiptTotal(lines) !== null;
}

/**
 * A receipt's total: the total line that what was paid follows (within three
 * lines: 'TOTAL $514.25', 'Bank 514.25', 'CHANGE $0.00'). A tax table's 'Total'
 * further down totals the taxes, and the largest amount is often the cash
 * handed over.
 */
export function receiptTotal(lines: string[]): string | null {
  for (let i = 0; i < lines.length; i += 1) {
    if (!TOTAL_WORD.test(lines[i]) || NOT_RECEIPT_TOTAL.test(lines[i]) || PAYMENT_LINE.test(lines[i])) continue;
    if (!lines.slice(i + 1, i + 4).some((line) => PAYMENT_LINE.test(line))) continue;
    const amount = lastAmount(lines[i]);
    if (amount !== null) return amount;
  }
  return null;
}

/** A leading number of four digits or more, or one with a leading zero, is an article code ('000666 Dragon Tears'), not a count. */
const isCode = (count: string) => count.length >= 4 || /^0\d/.test(count);

/** 'x52.017,49' after a price of 403,50: the quantity (5) and amount (2017.49) whose product is nearest the price's multiple. */
function splitCountAndAmount(price: number, run: string): { quantity: string; amount: string } | null {
  for (let digits = 1; digits <= 3; digits += 1) {
    const quantity = Number(run.slice(0, digits));
    const amount = amountsIn(run.slice(digits))[0];
    if (!quantity || amount === undefined) continue;
    if (multipliesTo(quantity, price, Number(amount), 0.02)) return { quantity: String(quantity), amount };
  }
  return null;
}

/** A row that details the item beside it: a count or a weight times a price ('2 Stk x 0,99', '0,410 kg x 3,49 EUR/kg', '2 @ 1.50'). */
const DETAIL_ROW = /^(\d{1,4}(?:[.,]\d{1,3})?)\s*(?:stk\.?|st\.?|pcs?\.?|kg|g|l)?\s*[x×*@]\s*(\d[\d.,]*[.,]\d{2})\s*(?:eur|€|\$|£)?(?:\s*\/\s*\p{L}{1,5})?$/iu;

/** A row of count, price and amount alone ('2 X 1.30  2.60'), its item named on the line above. */
const COUNTED_ROW = /^(\d{1,4}(?:[.,]\d{1,3})?)\s*(?:stk\.?|st\.?|pcs?\.?|kg)?\s*[x×*@]\s*(\d[\d.,]*[.,]\d{2})\s+(-?\d[\d.,]*[.,]\d{2})\s*(?:[$€£]|EUR|[A-Z])?$/iu;

function countedRow(line: string): LineItem | null {
  const row = line.length <= MAX_ROW ? COUNTED_ROW.exec(line) : null;
  const [price, amount] = row ? [amountsIn(row[2])[0], amountsIn(row[3])[0]] : [];
  if (!row || price === undefined || amount === undefined) return null;
  const item: LineItem = { description: '', quantity: null, unit_price: null, amount };
  return detailed(item, { quantity: row[1].replace(',', '.'), price }) ? item : null;
}

function detailRow(line: string | undefined): { quantity: string; price: string } | null {
  const row = line === undefined ? null : DETAIL_ROW.exec(line.trim());
  const price = row ? amountsIn(row[2])[0] : undefined;
  return row && price !== undefined ? { quantity: row[1].replace(',', '.'), price } : null;
}

/** The count and price of a detail row, set on the item when their product is its amount. */
function detailed(item: LineItem, row: { quantity: string; price: string } | null): boolean {
  if (!row || Math.abs(Number(row.quantity) * Number(row.price) - Number(item.amount)) > 0.011) return false;
  item.quantity = row.quantity;
  item.unit_price = row.price;
  return true;
}

/** A row 'description  quantity x price  amount' ('Milch 2 x 0,99  1,98 A', 'COFFEE 2 @ 1.50  3.00'). */
const TIMES_PRICE_ROW = /^(.*\p{L}.*?)\s+(\d{1,4}(?:[.,]\d{1,3})?)\s*(?:stk\.?|st\.?|pcs?\.?|kg)?\s*[x×*@]\s*(\d[\d.,]*[.,]\d{2})\s+(-?\d[\d.,]*[.,]\d{2})\s*(?:[$€£]|EUR|USD|GBP|[A-Z])?$/iu;

/** An item's row is short and ends with its amount: only such a line is matched against the row patterns (their cost grows with the line). */
const ENDS_WITH_AMOUNT = /\d[.,]\d{2}\s*(?:[$€£]|EUR|USD|GBP|[A-Z]|(?<=\s)[1-4])?$/;
const MAX_ROW = 160;

function itemRow(line: string): LineItem | null {
  if (line.length > MAX_ROW || !ENDS_WITH_AMOUNT.test(line)) return null;
  const inline = TIMES_PRICE_ROW.exec(line);
  if (inline) {
    const item: LineItem = { description: inline[1].trim(), quantity: null, unit_price: null, amount: amountsIn(inline[4])[0] ?? null };
    if (item.amount !== null && detailed(item, { quantity: inline[2].replace(',', '.'), price: amountsIn(inline[3])[0] ?? 'x' })) return item;
  }
  const times = PRICE_TIMES_ROW.exec(line);
  if (times) {
    const price = Number(amountsIn(times[2])[0]);
    const parts = times[3] !== undefined ? { quantity: times[3], amount: amountsIn(times[4])[0] } : splitCountAndAmount(price, times[4].replace(/^-/, ''));
    if (parts?.amount !== undefined) {
      const amount = times[4].startsWith('-') && !parts.amount.startsWith('-') ? `-${parts.amount}` : parts.amount;
      return { description: times[1].trim(), quantity: parts.quantity, unit_price: price.toFixed(2), amount };
    }
  }
  const row = ITEM_ROW.exec(line);
  if (!row || ITEMS_END.test(line) || PAYMENT_LINE.test(line)) return null;
  const amount = amountsIn(row[3])[0];
  if (amount === undefined) return null;
  // A code before the words ('000666 Dragon Tears'): not a count.
  const count: string | undefined = row[1] !== undefined && !isCode(row[1]) ? row[1] : undefined;
  const description = row[2].trim().replace(/^\d{4,}\s+/, '');
  if (!/\p{L}{2}/u.test(description)) return null;
  return { description, quantity: count === undefined ? '1' : (amountsIn(count)[0] ?? count).replace(/\.00$/, ''), unit_price: null, amount };
}

/**
 * A receipt's items: the rows just above its first total (or subtotal, or
 * count) line, read upwards until a line that is no item; a line of words
 * alone under an item continues its description ('Conference Chair' over
 * '(Aluminium)'). Nothing when no row is found.
 */
export function receiptItems(lines: string[]): LineItem[] {
  // The first end line with an item row among the forty lines above it (each line matched once).
  let lastRow = -Infinity;
  let end = -1;
  for (let i = 0; i < lines.length && end < 0; i += 1) {
    if (ITEMS_END.test(lines[i]) && i - lastRow <= 40) end = i;
    else if (itemRow(lines[i].trim()) !== null) lastRow = i;
  }
  if (end <= 0) return [];
  const items: LineItem[] = [];
  let pending: string[] = [];
  let below: { quantity: string; price: string } | null = null;
  let orphan: LineItem | null = null;
  let skipped = 0;
  for (let i = end - 1; i >= 0 && items.length < 200; i -= 1) {
    const line = lines[i].trim();
    // 'SALADE LAITUE' over '2 X 1.29  2.58': the row of count, price and amount names its item on the line above.
    const counted = countedRow(line);
    if (counted) {
      orphan = counted;
      continue;
    }
    if (orphan && !/\d/.test(line) && /\p{L}{2}/u.test(line) && line.length <= 60) {
      items.unshift({ ...orphan, description: line });
      orphan = null;
      continue;
    }
    orphan = null;
    // A count or weight row belongs to the item above it (or, on some tills, below it).
    const detail = detailRow(line);
    if (detail) {
      below = detail;
      continue;
    }
    const item = itemRow(line);
    if (item) {
      if (pending.length > 0) item.description = `${item.description} ${pending.join(' ')}`;
      if (!detailed(item, below) && detailed(item, detailRow(lines[i - 1]))) i -= 1;
      pending = [];
      below = null;
      skipped = 0;
      items.unshift(item);
      continue;
    }
    // A rule of dashes before any item is passed; one above the items ends them.
    if (!/[\p{L}\d]/u.test(line)) {
      if (items.length > 0) break;
      continue;
    }
    // A section's heading between items ('- FRUITS ET LEGUMES -', '** BOISSONS **') is passed, and continues nothing.
    if (/^[-–*=#]|[-–*=#]$/.test(line) && !/\d[.,]\d{2}/.test(line)) {
      pending = [];
      continue;
    }
    // Words alone: the rest of the description of the item above, unless two such lines come together (a heading), or the
    // line below them was a row OCR could not read (they name that row's item).
    if (!/\d/.test(line) && line.length <= 40) {
      if (skipped > 0) {
        skipped = 0;
        continue;
      }
      if (pending.length === 0) {
        pending = [line];
        continue;
      }
      if (items.length > 0) break;
      pending = [];
      continue;
    }
    // A row OCR misread ('2%1,2  2.58') is stepped over; a second one together ends the items.
    if (items.length > 0 && skipped === 0 && line.length <= MAX_ROW && !/\d{1,4}[-/.]\d{1,2}[-/.]\d{2,4}/.test(line)) {
      skipped = 1;
      pending = [];
      continue;
    }
    break;
  }
  return items;
}

/**
 * A row that opens with its tax class and the rate without its sign, the sign being in the heading above ('A  7,0  3,07
 * 0,21  3,28' under 'MwSt  %  netto  MwSt  brutto'). The heading is not looked at: rateColumns' arithmetic (base × rate =
 * tax, to the cent) and taxTable's (rows that agree, or make the total) tell such a row from a row of prices.
 */
const CLASS_RATE = /^\W{0,2}[A-Z1-9]\W{0,2}\s+(\d{1,2}[.,]\d{1,2})(?=\s)/;

/** Of a tax table's row, its amounts after the rate and which of them are the tax and its base (tax = base × rate, to the cent). */
function rateColumns(line: string): { tax: number; net: number; amounts: number[] } | null {
  const rate = RATE.exec(line) ?? CLASS_RATE.exec(line);
  // A rate of 30% at most.
  if (!rate || rateOf(rate) > 30) return null;
  // A table's row holds a few amounts: the first eight are looked at (64 pairs at most).
  const amounts = amountsIn(line.slice(rate.index + rate[0].length, rate.index + 200)).slice(0, 8).map(cents);
  for (let net = 0; net < amounts.length; net += 1) {
    for (let tax = 0; tax < amounts.length; tax += 1) {
      if (tax !== net && amounts[net] > 0 && Math.abs(Math.round((amounts[net] * rateOf(rate)) / 100) - amounts[tax]) <= 1) return { tax, net, amounts };
    }
  }
  return null;
}

/**
 * A receipt's table of tax rates ('Tax 15% Over $ 295.00  $44.25'; 'A= 19,0%
 * 3,53  0,67  4,20' under 'MwSt% Netto MwSt Brutto'): in each row the tax and
 * its base are the amounts the rate ties together; the receipt's tax and net
 * are their sums, when a row below totals them ('Total $435.00 $79.25'), two
 * rows or more agree on the columns, or they make the receipt's total.
 */
export function taxTable(lines: string[], total?: string): { tax: string; net: string } | null {
  for (let i = 0; i < lines.length; i += 1) {
    const first = rateColumns(lines[i]);
    if (!first) continue;
    let j = i;
    let [tax, net] = [0, 0];
    for (; j < lines.length && j - i < 10; j += 1) {
      const columns = rateColumns(lines[j]);
      if (!columns || columns.tax !== first.tax || columns.net !== first.net) break;
      tax += columns.amounts[columns.tax];
      net += columns.amounts[columns.net];
    }
    const totalRow = lines[j] !== undefined && /\b(?:total|summe|gesamt\p{L}*|totale|totaal|suma|somme)\b/iu.test(lines[j]) ? amountsIn(lines[j]).map(cents) : [];
    const totalled = totalRow.includes(tax) && totalRow.includes(net);
    // One rate's row alone ('20%  0.72  3.58') is the receipt's when its net and tax make the total.
    const makesTotal = total !== undefined && net + tax === cents(total);
    if (totalled || j - i >= 2 || makesTotal) return { tax: (tax / 100).toFixed(2), net: (net / 100).toFixed(2) };
    i = j;
  }
  return null;
}

/** An address's line ('239 Avenue Jean-Jaurès', 'Mühlenweg 4, 23758 Oldenburg', '75000 Paris') or a phone's. */
const ADDRESS_LINE = /^\d{1,5}\s*,?\s+\p{L}|\b\d{4,5}\s+\p{L}{3}|\p{L}{3,}\s+\d{1,4}\s*,|\b(?:tel|phone|t[ée]l)\b/iu;

/** The shop's name that heads a receipt: the line of a name's shape above its address, else the first, above its first amount. */
export function receiptShop(lines: string[]): string | null {
  const top = lines.slice(0, 6);
  const firstAmount = top.findIndex((line) => /\d[.,]\d{2}\b/.test(line));
  const names = (firstAmount < 0 ? top : top.slice(0, firstAmount)).map((line, i) => ({ name: shopName(line), i }));
  // The name right above the shop's address is surer than a first line (OCR reads a logo as 'MAT').
  const aboveAddress = names.find(({ name, i }) => name !== null && ADDRESS_LINE.test(lines[i + 1] ?? ''));
  return aboveAddress?.name ?? names.find(({ name }) => name !== null)?.name ?? null;
}

/** A line of a name's shape: not a logo placeholder, a title, an address, a slogan, OCR's specks or a tagline. */
function shopName(line: string): string | null {
  const text = line.trim();
  if (NOT_A_NAME.test(text) || !/\p{L}{3}/u.test(text) || /^\d/.test(text) || /\b\d{4,5}\b/.test(text)) return null;
  // A town's line ('Glimmerhollow, TQ, 981-PPU') is the address, not the name above it.
  if (ADDRESS_LINE.test(text) || /,\s*\S*\d/.test(text)) return null;
  // A name is letters, digits and a few marks: a slogan ('Die Zeitung gehört dazu!') or OCR's specks ('| ; A') are not.
  if (!/^[\p{L}\d .,&'’()/+-]+$/u.test(text)) return null;
  // A sentence ('The New Face of Open source POS') is a tagline, not a name.
  if (text.split(/\s+/).length > 5 || /\s(?:of|the|and|for|your|our|und|der|de|la|et|el|di)\s/i.test(` ${text} `)) return null;
  return text.replace(/[\s\-–—|]+$/, '');
}

/**
 * Net + tax = total does not hold on a photographed receipt when OCR misread a
 * digit of the net ('47.08' for 47.06, '8400.00' for 9400.00). Total − tax is
 * the net then, when something else the receipt prints confirms it: its items
 * add up to it, or the tax is the printed rate of it ('Tax (20%)').
 */
export function repairNet(lines: string[], fields: DocumentFields, items: LineItem[]): void {
  const { subtotal, tax_amount: tax, total } = fields;
  if (!subtotal || !tax || !total) return;
  const net = cents(total.value) - cents(tax.value);
  // A cent apart is the document's own rounding, not a misread digit.
  if (net <= 0 || Math.abs(net - cents(subtotal.value)) <= 1) return;
  const itemsSum = items.reduce((sum, item) => sum + cents(item.amount ?? '0'), 0);
  const rate = lines.map((line) => /\b(?:tax|vat|mwst|ust|tva|iva|btw)\b[^%\n]{0,12}?(\d{1,2}(?:[.,]\d+)?)\s?%/i.exec(line)?.[1]).find(Boolean);
  const taxAt = (base: number) => Math.round((base * Number(rate?.replace(',', '.'))) / 100);
  // The rate confirms total − tax only when the net read does not fit it as well.
  const byRate = rate !== undefined && Math.abs(taxAt(net) - cents(tax.value)) <= 1 && Math.abs(taxAt(cents(subtotal.value)) - cents(tax.value)) > 1;
  if (itemsSum !== net && !byRate) return;
  fields.subtotal = { value: (net / 100).toFixed(2), confidence: 0.7 };
}

const TAX_WORD = /\b(?:vat|tax|tva|iva|btw|mwst|ust|moms|mva)\b/i;
/** An amount written with its cents ('1.92', '1.234,56'), and a rate with a misread sign ('5.60K', '19,0%'). */
const CENTS = /(?<![\d.,])-?\d{1,3}(?:[.,\s]\d{3})*[.,]\d{2}(?![\d.,])/g;
const RATE_TEXT = /\d{1,2}[.,]\d{1,2}\s?[%K]/g;

/** What a loyalty card or discounts saved ('Réduction totale carte Extra: € 41,15', 'Total savings', 'Rabatt gesamt'): not a total. */
const SAVINGS = /\b(?:r[ée]duction|remise|[ée]conomis\p{L}*|discounts?|savings?|saved|rabatt|ersparnis|gespart|korting|descuento|ahorro|sconto|risparmio|desconto|rabat|oszcz[ęe]dno\p{L}*)\b/iu;

/** A total read from a line of savings ('Réduction totale … 41,15') is none: removed, when no other total line prints it. */
export function dropSavingsTotal(lines: string[], fields: DocumentFields): void {
  const total = fields.total?.value;
  if (total === undefined) return;
  const holders = lines.filter((line) => TOTAL_WORD.test(line) && amountsIn(line).includes(total)).slice(0, 20);
  if (holders.length > 0 && holders.every((line) => SAVINGS.test(line))) delete fields.total;
}

/**
 * A receipt's fields, after the invoice rules: its kind when no title word
 * named one, its total above what was paid, its shop's name, its items, the
 * tax of its table of rates, and a net an OCR misread broke.
 */
export function refineReceipt(lines: string[], fields: DocumentFields): void {
  dropSavingsTotal(lines, fields);
  const kind = fields.kind;
  if (kind?.value === 'other' && kind.confidence < 0.5 && looksLikeReceipt(lines)) fields.kind = { value: 'receipt', confidence: 0.6 };
  if (fields.kind?.value !== 'receipt') return;

  const total = receiptTotal(lines);
  if (total !== null && total !== fields.total?.value) fields.total = { value: total, confidence: 0.75 };

  const supplier = fields.supplier_name;
  if (!supplier || supplier.confidence < 0.5) {
    const shop = receiptShop(lines);
    if (shop) fields.supplier_name = { value: shop, confidence: 0.5 };
    // The first line guessed as the supplier was the receipt's title ('EDIT SALE TICKET').
    else if (supplier && NOT_A_NAME.test(supplier.value)) delete fields.supplier_name;
  }

  const generic = fields.line_items?.value ?? [];
  const items = generic.length === 0 || generic.every((item) => item.quantity === null) ? receiptItems(lines) : [];
  if (items.length > 0) fields.line_items = { value: items, confidence: 0.6 };

  // A tax line that runs into the next column ('5.50%-TVA 1.92  N° visite: 5'): its amount is the one written with cents.
  const tax = fields.tax_amount?.value;
  const taxLine = tax === undefined ? undefined : lines.find((line) => TAX_WORD.test(line) && amountsIn(line).includes(tax));
  const cented = taxLine === undefined ? [] : [...taxLine.replace(RATE_TEXT, ' ').matchAll(CENTS)].map(([m]) => amountsIn(m)[0]).filter((a) => a !== undefined);
  if (tax !== undefined && cented.length > 0 && !cented.includes(tax)) fields.tax_amount = { value: cented[cented.length - 1], confidence: 0.6 };

  const table = taxTable(lines, fields.total?.value);
  if (table !== null) {
    fields.tax_amount = { value: table.tax, confidence: 0.7 };
    // The table's net is the receipt's when net + tax is its total.
    if (fields.total && cents(table.net) + cents(table.tax) === cents(fields.total.value)) fields.subtotal = { value: table.net, confidence: 0.7 };
  }
  // 'Total Taxes $0.00': a receipt of untaxed goods states its tax as nought.
  else if (!fields.tax_amount && lines.some((line) => /\btotal\s+tax(?:es)?\b/i.test(line) && lastAmount(line) === '0.00')) fields.tax_amount = { value: '0.00', confidence: 0.6 };

  // 'CHANGE DUE 4.06' names the change, not a due date: the date the due label found is the receipt's own.
  if (fields.due_date && lines.some((line) => /\bchange\s+due\b/i.test(line)) && !lines.some((line) => /\b(?:due\s+(?:date|by|on)|payment\s+due|pay(?:able)?\s+by)\b/i.test(line))) {
    if (!fields.issue_date) fields.issue_date = { value: fields.due_date.value, confidence: 0.5 };
    delete fields.due_date;
  }

  repairNet(lines, fields, fields.line_items?.value ?? []);
}
