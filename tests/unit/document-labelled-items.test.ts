// Line items printed as blocks of labelled lines (labelled-items.ts): the SdI
// stylesheet's rendering of a FatturaPA, one field a line.
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../app/features/documents/extraction/extract-fields.ts';
import { labelledItems } from '../../app/features/documents/extraction/labelled-items.ts';

const lines = (text: string) => text.split('\n').map((line) => ({ text: line }));

describe('labelledItems', () => {
  it('reads each block of description, quantity, unit price and total', () => {
    const text = [
      'Dati relativi alle linee di dettaglio della fornitura',
      'Nr. linea: 10',
      'Descrizione bene/servizio: Benzina S.Pb 10PPM',
      'Quantità: 4000.00000000',
      'Unità di misura: L',
      'Valore unitario: 1.35580114',
      'Valore totale: 5423.20456',
      'IVA (%): 22.00',
      'Nr. linea: 20',
      'Descrizione bene/servizio: Gasolio Autotrazione 10PPM',
      'Quantità: 32000.00000000',
      'Valore totale: 39096.05760',
    ].join('\n');
    expect(labelledItems(lines(text)).map((item) => [item.description, item.quantity, item.amount])).toEqual([
      ['Benzina S.Pb 10PPM', '4000.00', '5423.20'],
      ['Gasolio Autotrazione 10PPM', '32000.00', '39096.06'],
    ]);
    expect(extractFields(`Fattura 1\n${text}`).fields.line_items?.value).toHaveLength(2);
  });

  it("takes no lone 'Description:' with a total for an item, nor a quantity from the next block", () => {
    expect(labelledItems(lines('Description: Annual maintenance contract\nTotal: 1,200.00'))).toEqual([]);
    expect(labelledItems(lines('Description: A\nDescription: B\nQuantity: 2\nTotal: 4.00')).map((item) => item.description)).toEqual(['B']);
  });

  it('reads 5,000 blocks once each, and stops at 500 items', () => {
    const block = 'Description: X\nQuantity: 1\nTotal: 1.00\n';
    expect(labelledItems(lines(block.repeat(5_000)))).toHaveLength(500);
  });
});
