// Till receipts through the extractor (receipt.ts, hooked at the end of
// extractFields): the kind without a title, the total above what was paid,
// the shop's name, bare item rows, a table of tax rates, and a net that OCR
// misread. Texts as the PDF reader and OCR give them (columns as wide spaces).
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../app/features/documents/extraction/extract-fields.ts';
import { dropSavingsTotal, looksLikeReceipt, receiptItems, receiptShop, receiptTotal, taxTable } from '../../app/features/documents/extraction/receipt.ts';

const fieldsOf = (text: string) => extractFields(text).fields;
const value = (text: string, key: 'kind' | 'total' | 'subtotal' | 'tax_amount' | 'supplier_name') => fieldsOf(text)[key]?.value;

const ODOO = `Your logo
My Company (San Francisco)
Tel:+1 (650) 555-0111
info@yourcompany.com
Served by Mitchell Admin
Conference Chair 39.40
(Aluminium)
TOTAL 39.40 €
Cash 222.00
CHANGE 182.60 €
Total Taxes 0.00 €`;

describe('a receipt without a title word', () => {
  it('is a receipt by its change line, its cashier or its own title word; an invoice or a letter is not', () => {
    expect(value(ODOO, 'kind')).toBe('receipt');
    expect(looksLikeReceipt(['MediaCoast', 'Kassenbeleg - 15.01.2026 11:53', 'test  1.99 EUR'])).toBe(true);
    expect(looksLikeReceipt(['My Shop', 'Ticket n°23', '1 iPad  800.00'])).toBe(true);
    expect(looksLikeReceipt(['SCONTRINO', 'TOTALE 6,00'])).toBe(true);
    expect(looksLikeReceipt(['Dear Sir,', 'the change of address is attached.', 'Total 10.00'])).toBe(false);
    expect(value('Invoice INV-1\nChange request CR-7\nTotal 100.00\nCash discount 2%', 'kind')).toBe('invoice');
  });
});

describe("a receipt's total", () => {
  it('is the total above what was paid, not the larger cash handed over or the change', () => {
    expect(value(ODOO, 'total')).toBe('39.40');
    expect(value('Served by Ann\nCoffee 3.20\nTOTAL $3.20\nBank 3.20\nCHANGE $0.00', 'total')).toBe('3.20');
  });

  it('is not the total row of the tax table printed below it', () => {
    const text = 'Acoustic Bloc Screens 339.25\nCabinet with Doors 175.00\nTOTAL $514.25\nBank 514.25\nCHANGE $0.00\nBase Amount\nTax 15% Over $ 295.00 $44.25\nTax 25% Over $ 140.00 $35.00\nTotal $435.00 $79.25';
    expect(value(text, 'total')).toBe('514.25');
    expect(value(text, 'tax_amount')).toBe('79.25');
    expect(value(text, 'subtotal')).toBe('435.00');
    expect(taxTable(text.split('\n'))).toEqual({ tax: '79.25', net: '435.00' });
    expect(taxTable(['IVA 21%  1.500,62 €  315,13 €', 'Thank You'])).toBeNull();
  });

  it('reads TOTAAL, TOTALE, TOTAL A PAGAR and SUMME above CONTANT, CONTANTI, EFECTIVO, BAR and their change', () => {
    expect(value('Bakkerij Jansen\nBrood 2,40\nTOTAAL 8,40\nCONTANT 10,00\nWISSELGELD 1,60', 'total')).toBe('8.40');
    expect(value('Bar Roma\nCaffè 1,20\nTOTALE EURO 6,00\nCONTANTI 10,00\nRESTO 4,00', 'total')).toBe('6.00');
    expect(value('Cafetería Sol\nCafé 1,50\nTOTAL A PAGAR 15,30\nEFECTIVO 20,00\nCAMBIO 4,70', 'total')).toBe('15.30');
    expect(value('Bäckerei Korn\nBrezel 0,90\nSUMME EUR 12,50\nGegeben BAR 20,00\nRÜCKGELD 7,50\nMwSt 19% 2,00', 'total')).toBe('12.50');
    expect(receiptTotal(['TOTAL 5.00', 'the end'])).toBeNull();
    // Nothing labels a total and the only amount with cents is a phone number's run of digits: no total.
    expect(value('Kostenlose Quittung / Receipt\nTaxi-Nr. 12\nwire +49 50.21 0101.', 'total')).toBeUndefined();
  });
});

const SUPERMARKET = `REWE Markt GmbH
Musterstr. 1
12345 Musterstadt
BANANE                1,43 B
0,410 kg x 3,49 EUR/kg
MILCH 3,5%            1,98 B
2 Stk x 0,99
BIER                  4,20 A
--------------------------
SUMME           EUR   7,61
Geg. BAR        EUR  10,00
Rückgeld BAR    EUR   2,39
Steuer %   Netto   Steuer   Brutto
A= 19,0%   3,53    0,67     4,20
B=  7,0%   3,19    0,22     3,41
Gesamtbetrag 6,72  0,89     7,61
11.07.18 14:23  Bon-Nr.: 1234`;

describe('a supermarket receipt', () => {
  it('is a receipt by its change paid in cash, its total the SUMME, its tax and net the sums of its table of rates', () => {
    const fields = fieldsOf(SUPERMARKET);
    expect(fields.kind?.value).toBe('receipt');
    expect(fields.total?.value).toBe('7.61');
    expect(fields.tax_amount?.value).toBe('0.89');
    expect(fields.subtotal?.value).toBe('6.72');
    expect(fields.issue_date?.value).toBe('2018-07-11');
    expect(looksLikeReceipt(['Bon-Nr.: 1234'])).toBe(true);
  });

  it('reads the count or weight row under an item as its quantity and unit price', () => {
    expect(fieldsOf(SUPERMARKET).line_items?.value).toEqual([
      { description: 'BANANE', quantity: '0.410', unit_price: '3.49', amount: '1.43' },
      { description: 'MILCH 3,5%', quantity: '2', unit_price: '0.99', amount: '1.98' },
      { description: 'BIER', quantity: '1', unit_price: null, amount: '4.20' },
    ]);
  });
});

describe('receipts of other tills', () => {
  it("reads a US till slip: its items' 'quantity @ price', its total above CASH and CHANGE DUE, whose 'due' dates nothing", () => {
    const fields = fieldsOf('WALMART SUPERCENTER\n123 MAIN ST\nCOFFEE 2 @ 1.50       3.00\nBREAD                 2.49\nSUBTOTAL              5.49\nTAX 8.25%             0.45\nTOTAL                 5.94\nCASH                 10.00\nCHANGE DUE            4.06\n11/17/2023 10:42 AM');
    expect(fields.kind?.value).toBe('receipt');
    expect(fields.total?.value).toBe('5.94');
    expect(fields.due_date).toBeUndefined();
    expect(fields.issue_date?.value).toBe('2023-11-17');
    expect(fields.line_items?.value[0]).toEqual({ description: 'COFFEE', quantity: '2', unit_price: '1.50', amount: '3.00' });
  });

  it("reads a French bakery's ticket (TOTAL TTC, ESPECES, RENDU) and a German one paid by card, 'quantity x price' in the row", () => {
    const bakery = fieldsOf('Boulangerie Dupont\n12 rue de la Paix 75002 Paris\nBaguette 2 x 1,10      2,20\nCroissant              1,30\nTOTAL TTC              3,50\nESPECES                5,00\nRENDU                  1,50\nLe 27/11/2026 à 08:15');
    expect([bakery.kind?.value, bakery.total?.value, bakery.supplier_name?.value]).toEqual(['receipt', '3.50', 'Boulangerie Dupont']);
    expect(bakery.line_items?.value[0]).toEqual({ description: 'Baguette', quantity: '2', unit_price: '1.10', amount: '2.20' });
    const card = fieldsOf('Supermarkt Müller\nMilch 2 x 0,99  1,98 A\nBrot  2,49 A\nSUMME EUR  4,47\nKartenzahlung  4,47\n27.11.2026 08:15');
    expect([card.kind?.value, card.total?.value]).toEqual(['receipt', '4.47']);
    expect(card.line_items?.value.map((i) => [i.description, i.quantity])).toEqual([
      ['Milch', '2'],
      ['Brot', '1'],
    ]);
  });
});

describe("a receipt's one tax rate", () => {
  it("gives its tax and net when the rate's row makes the total (UK, Dutch, French, Spanish tills)", () => {
    const uk = fieldsOf('TESCO EXPRESS\nSANDWICH            £2.50\nCOFFEE              £1.80\nTOTAL               £4.30\nCARD                £4.30\nVAT RATE  VAT  NET\n20%  0.72  3.58\n14/03/2024 12:01');
    expect([uk.tax_amount?.value, uk.subtotal?.value]).toEqual(['0.72', '3.58']);
    const nl = fieldsOf('Albert Heijn\nBROOD        2,49\nKAAS         5,91\nTOTAAL       8,40\nPIN          8,40\nBTW   OVER   EUR\n9%    7,71   0,69\n14-03-2024 18:45');
    expect([nl.kind?.value, nl.tax_amount?.value, nl.subtotal?.value]).toEqual(['receipt', '0.69', '7.71']);
    expect(taxTable(['5,5%  2,08  0,11  2,19'], '2.19')).toEqual({ tax: '0.11', net: '2.08' });
    expect(taxTable(['5,5%  2,08  0,11  2,19'], '9.99')).toBeNull();
  });
});

describe("a restaurant's check", () => {
  it('is a receipt by its server, its items counted, its total the one above the blank tip lines', () => {
    const fields = fieldsOf("Joe's Diner\nServer: Ann  Table 4\n2 Burger      24.00\n1 Salad        9.50\nSubtotal      33.50\nTax            2.93\nTotal         36.43\nTip     ________\nTotal   ________\n03/14/2024 20:15");
    expect([fields.kind?.value, fields.total?.value, fields.supplier_name?.value]).toEqual(['receipt', '36.43', "Joe's Diner"]);
    expect(fields.line_items?.value.map((i) => [i.description, i.quantity, i.amount])).toEqual([
      ['Burger', '2', '24.00'],
      ['Salad', '1', '9.50'],
    ]);
  });
});

describe('a supermarket ticket read by OCR', () => {
  const TICKET = `SUPERMARCHE MATCH
239 Avenue Jean-Jaurès
Articles   Prix
- CHARCUTERIE -
RILLETTES PG FE  2.95
PATE FEUILLETE EPA  1.19
- EPICERIE BOISSONS -
COCA COLA ZERO PET
2 X 1.30  2.60
SALADE LAITUE PIEC
2%1,2  2.58
PATATE DOUCE  1.63
TOTAL  10.95
CB  10.95
5.50%-TVA  0.57   N° visite: 5`;

  it("passes section headings, names a 'count x price amount' row from the line above, steps over one row OCR misread", () => {
    expect(receiptItems(TICKET.split('\n')).map((i) => [i.description, i.quantity, i.amount])).toEqual([
      ['RILLETTES PG FE', '1', '2.95'],
      ['PATE FEUILLETE EPA', '1', '1.19'],
      ['COCA COLA ZERO PET', '2', '2.60'],
      ['PATATE DOUCE', '1', '1.63'],
    ]);
  });

  it('takes the tax written with cents where the line runs into the next column, and the shop above its address', () => {
    const fields = fieldsOf(TICKET);
    expect(fields.tax_amount?.value).toBe('0.57');
    expect(receiptShop(['MAT', 'momie”', 'SUPERMARCHE MATCH', '239 Avenue Jean-Jaurès'])).toBe('SUPERMARCHE MATCH');
    expect(receiptShop(['Glimmerhollow, TQ, 981-PPU', 'Phone: +1-403-555-2106'])).toBeNull();
  });

  it("gives no total read from a line of savings ('Réduction totale carte Extra')", () => {
    const fields: Parameters<typeof dropSavingsTotal>[1] = { total: { value: '41.15', confidence: 0.75 } };
    dropSavingsTotal(['TOTAL VIDANGES  7,40', 'Réduction totale carte Extra: € 41,15'], fields);
    expect(fields.total).toBeUndefined();
    const kept: Parameters<typeof dropSavingsTotal>[1] = { total: { value: '64.35', confidence: 0.75 } };
    dropSavingsTotal(['TOTAL  64,35', 'Réduction totale carte Extra: € 41,15'], kept);
    expect(kept.total?.value).toBe('64.35');
  });
});

describe("a receipt's shop", () => {
  it('is the name heading it, past a logo placeholder, a tagline or a title; none when an item comes first', () => {
    expect(value('MediaCoast\nMühlenweg 4, 23758 Oldenburg in Holstein\nKassenbeleg - 15.01.2026 11:53\ntest  1.99 EUR\nGESAMTSUMME  3.98 EUR', 'supplier_name')).toBe('MediaCoast');
    expect(receiptShop(['Your logo', 'My Shop', '1, rue des gloutons'])).toBe('My Shop');
    expect(receiptShop(['EDIT SALE TICKET', 'The New Face of Open source POS', 'Copyright (c) 2015-2016 Chromis', 'Receipt: 1037'])).toBeNull();
    expect(receiptShop(['Acoustic Bloc Screens 339.25', 'Base Amount'])).toBeNull();
    expect(receiptShop(['| ; A', 'Die Zeitung gehört dazu!\\ =', 'Kostenlose Quittung / Receipt'])).toBeNull();
    expect(value('EDIT SALE TICKET\nThe New Face of Open source POS\nReceipt:  1037\nTotal  5,00 €\nTendered:  10,00 €\nChange:  5,00 €', 'supplier_name')).toBeUndefined();
  });
});

describe("a receipt's items", () => {
  it('reads bare rows above the total: a count, an article code, a description run on to the next line', () => {
    expect(fieldsOf(ODOO).line_items?.value).toEqual([{ description: 'Conference Chair (Aluminium)', quantity: '1', unit_price: null, amount: '39.40' }]);
    expect(receiptItems(['My Shop', 'Ticket n°23', '1 Macbook Pro  2500.00', '5 Macbook Air  1500.00', '2 x Coffee  5.00', 'Subtotal  9400.00 €'])).toEqual([
      { description: 'Macbook Pro', quantity: '1', unit_price: null, amount: '2500.00' },
      { description: 'Macbook Air', quantity: '5', unit_price: null, amount: '1500.00' },
      { description: 'Coffee', quantity: '2', unit_price: null, amount: '5.00' },
    ]);
    expect(receiptItems(['SKU Product Description Price', '000666 Dragon Tears 5.60', '000042 Towel 19.99', 'subtotal 25.59']).map((i) => [i.description, i.quantity])).toEqual([
      ['Dragon Tears', '1'],
      ['Towel', '1'],
    ]);
  });

  it("reads a ticket's 'price x quantity amount' rows, the quantity run into the amount, and a discount", () => {
    const rows = ['Item  Price  Qty  Value', '------', 'grifo baño  403,50 €  x52.017,49 €', '*DTO. GRIFERIA -40,35 €  x5 -201,75 €', '------', 'Items count: 5', 'Total  1.815,74 €'];
    expect(receiptItems(rows)).toEqual([
      { description: 'grifo baño', quantity: '5', unit_price: '403.50', amount: '2017.49' },
      { description: '*DTO. GRIFERIA', quantity: '5', unit_price: '-40.35', amount: '-201.75' },
    ]);
  });

  it('states a tax of nought only where the receipt prints it', () => {
    expect(value(ODOO, 'tax_amount')).toBe('0.00');
    expect(value('Served by Ann\nCoffee 3.20\nTOTAL $3.20\nCash 5.00\nCHANGE $1.80', 'tax_amount')).toBeUndefined();
  });
});

describe('a net that OCR misread', () => {
  it('is total − tax when the items add up to it', () => {
    const text = 'Served by: the Brave\n000666 Dragon Tears 5.60\n000661 Lizard Tongue 7.77\n000911 Bat Wing 13.70\n000042 Towel 19.99\nsubtotal 47.08\nGuild Tax (5%) 2.35\nTotal 49.41';
    expect(value(text, 'subtotal')).toBe('47.06');
  });

  it('is total − tax when the printed rate gives the tax from it and not from the net read', () => {
    expect(value('My Shop\nTicket n°23\n1 iPad 9400.00\nSubtotal 8400.00 €\nTax (20%) 1880.00 €\nTotal 11280.00 €', 'subtotal')).toBe('9400.00');
  });

  it("is kept when it is a cent off (the document's own rounding)", () => {
    expect(value('Receipt: 1037\nTotal  1.815,74 €\nTendered:  1.830,00 €\nChange:  14,26 €\nNett of Tax:  1.500,62 €\nTaxes:  315,13 €\nIVA 21%  1.500,62 €  315,13 €', 'subtotal')).toBe('1500.62');
  });
});

describe('an invoice', () => {
  it('keeps the invoice rules: its latest total, its own items table and no receipt rules', () => {
    const text = 'ACME GmbH\nRechnung Nr. 2024-7\nBeschreibung  Menge  Preis  Betrag\nBeratung  2  50,00  100,00\nSumme  100,00\nBar  100,00\nGesamtbetrag  119,00';
    const fields = fieldsOf(text);
    expect(fields.kind?.value).toBe('invoice');
    expect(fields.total?.value).toBe('119.00');
    expect(fields.line_items?.value).toHaveLength(1);
  });
});

describe('German supermarket and drugstore receipts (ninth pass)', () => {
  const REWE = ['REWE Markt GmbH', 'Domstr. 20', '50668 Köln', 'EUR', 'BANANEN  1,49 B', 'MILCH 1,5%  0,99 B', 'KAFFEE CREMA  5,99 A', 'Posten: 3', 'SUMME  EUR  8,47', 'Geg. EC-Cash  EUR  8,47'];

  it("is a receipt paid by 'Geg. EC-Cash', its items above the count of 'Posten'", () => {
    const fields = fieldsOf(REWE.join('\n'));
    expect(fields.kind?.value).toBe('receipt');
    expect(fields.total?.value).toBe('8.47');
    expect(fields.line_items?.value.map((item) => [item.description, item.amount])).toEqual([['BANANEN', '1.49'], ['MILCH 1,5%', '0.99'], ['KAFFEE CREMA', '5.99']]);
  });

  it("reads rows whose tax class is a digit ('Zahnpasta 0,95 1'), not the digit as an amount", () => {
    expect(receiptItems(['dm-drogerie markt', 'Zahnpasta  0,95 1', 'Shampoo  2,45 2', 'SUMME EUR  3,40']).map((item) => [item.description, item.amount])).toEqual([['Zahnpasta', '0.95'], ['Shampoo', '2.45']]);
  });

  it("reads a table of rates whose rate has no sign on its row ('A  7,0  3,07  0,21  3,28' under 'MwSt  %  netto')", () => {
    expect(taxTable(['MwSt  %  netto  MwSt  brutto', 'A  7,0  3,07  0,21  3,28'], '3.28')).toEqual({ tax: '0.21', net: '3.07' });
    expect(taxTable(['A  7,0  3,07  0,99  3,28'], '3.28')).toBeNull();
  });
});

describe('a hostile receipt', () => {
  it('of 5,000 long total lines, rate rows or item-like rows is read in a fraction of the time the row patterns alone would take', () => {
    // Matched row by row against every line above each total, the item patterns took 12 s on the first of these.
    const texts = [
      'Receipt\n' + Array.from({ length: 5000 }, () => `total ${'a '.repeat(195)}`).join('\n'),
      'Receipt\n' + Array.from({ length: 5000 }, () => `MwSt 19% ${'1,00 '.repeat(78)}`).join('\n'),
      'Receipt\n' + Array.from({ length: 5000 }, () => `${'a1 '.repeat(130)}1.0`).join('\n') + '\nTOTAL 1.00',
    ];
    for (const text of texts) {
      const started = performance.now();
      extractFields(text);
      expect(performance.now() - started).toBeLessThan(5_000);
    }
  });
});

describe('a table of rates with no row of sums (ninth pass)', () => {
  it("takes no rate's gross for the total, nor its net for the subtotal: 'Summe in €' is the total", () => {
    const text = ['fiskaltrust consulting gmbh', 'Almdudler 0,25', '1 x € 3,80  3,80 A', 'Summe in €  21,00', 'MwSt  Netto  Steuer  Brutto', 'D 0%  2,00  0,00  2,00', 'B 10%  13,82  1,38  15,20', 'A 20%  3,17  0,63  3,80'].join('\n');
    const fields = fieldsOf(text);
    expect(fields.total?.value).toBe('21.00');
    expect(fields.subtotal).toBeUndefined();
  });
});
