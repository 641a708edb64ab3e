import { describe, expect, it } from 'vitest';
import { findFieldSource } from '../../app/features/documents/extraction/field-source.ts';

const TEXT = `Olivar del Sur S.L.
Calle Mayor 22, 41001 Sevilla
NIF: B12345678
FACTURA
Factura Nº: OS-2025/118
Fecha: 10/06/2025
Vencimiento: 10/07/2025
Importe total 1.430,00 €
IBAN: ES91 2100 0418 4502 0005 1332`;

describe('where an extracted field came from', () => {
  it('finds a text value as written, with the words around it', () => {
    expect(findFieldSource(TEXT, 'OS-2025/118', 'text')).toEqual({ before: expect.stringContaining('Factura Nº: '), match: 'OS-2025/118', after: expect.stringContaining('Fecha') });
  });

  it('finds an amount written with other separators', () => {
    expect(findFieldSource(TEXT, '1430.00', 'amount')?.match).toBe('1.430,00');
    expect(findFieldSource('Total: $1,430.00 due', '1430.00', 'amount')?.match).toBe('$1,430.00'.slice(1));
    expect(findFieldSource('Total 14300.00', '1430.00', 'amount')).toBeNull();
  });

  it('finds a date written day first, month first or in words', () => {
    expect(findFieldSource(TEXT, '2025-06-10', 'date')?.match).toBe('10/06/2025');
    expect(findFieldSource('Due: 6/10/2025', '2025-06-10', 'date')?.match).toBe('6/10/2025');
    expect(findFieldSource('Dated June 10, 2025.', '2025-06-10', 'date')?.match).toBe('June 10, 2025');
  });

  it('finds an IBAN written in groups', () => {
    expect(findFieldSource(TEXT, 'ES9121000418450200051332', 'iban')?.match).toBe('ES91 2100 0418 4502 0005 1332');
  });

  it('bounds the context and says nothing when the text lacks the value', () => {
    const long = `${'word '.repeat(100)}INV-7 ${'more '.repeat(100)}`;
    const source = findFieldSource(long, 'INV-7', 'text')!;
    expect(source.before.length).toBeLessThanOrEqual(61);
    expect(source.after.length).toBeLessThanOrEqual(61);
    expect(findFieldSource(TEXT, 'not there', 'text')).toBeNull();
    expect(findFieldSource(null, 'x', 'text')).toBeNull();
    expect(findFieldSource(TEXT, 'invoice', 'kind')).toBeNull();
  });
});
