// The language of a text read by OCR (decision 096), and the reader that reads
// a page again in it: texts as tesseract's English model gives them (accents
// dropped, "ł" read as "t").
import { describe, expect, it } from 'vitest';
import { languageReader } from '~/features/documents/ocr/read-in-language';
import { detectLanguage, languageScores } from '~/features/documents/ocr/text-language';
import { worthEnlarging } from '~/features/documents/ocr/enlarge';

const TEXTS = {
  eng: 'INVOICE\nInvoice number: 2024-118  Date: 3 May 2024\nDescription Qty Unit price Amount\nConsulting 4 120.00 480.00\nSubtotal 480.00\nTax (20%) 96.00\nTotal due 576.00\nPayment terms: 30 days. Thank you for your order.',
  deu: 'Rechnung\nRechnungsnummer: 4711 Rechnungsdatum: 03.05.2024\nPos Bezeichnung Menge Einzelpreis Gesamt\n1 Beratung 4 120,00 480,00\nNetto 480,00 MwSt 19% 91,20 Gesamtbetrag 571,20\nZahlbar innerhalb von 14 Tagen ohne Abzug. Vielen Dank fur Ihren Auftrag.',
  fra: 'FACTURE\nNumero de facture : F-2024-12 Date : 03/05/2024\nDesignation Quantite Prix unitaire Montant HT\nConseil 4 120,00 480,00\nTotal HT 480,00 TVA 20 % 96,00 Total TTC 576,00\nConditions de paiement : 30 jours. Merci pour votre commande.',
  spa: 'FACTURA\nNumero de factura: 2024-12 Fecha: 03/05/2024\nConcepto Cantidad Precio unitario Importe\nConsultoria 4 120,00 480,00\nBase imponible 480,00 IVA 21% 100,80 Total 580,80\nForma de pago: transferencia. Gracias por su confianza.',
  ita: 'FATTURA\nNumero fattura: 12/2024 Data: 03/05/2024\nDescrizione Quantita Prezzo unitario Importo\nConsulenza 4 120,00 480,00\nImponibile 480,00 IVA 22% 105,60 Totale 585,60\nPagamento con bonifico entro la scadenza. Grazie.',
  por: 'FATURA\nNumero da fatura: FT 2024/12 Data: 03/05/2024\nDescricao Quantidade Preco unitario Valor\nConsultoria 4 120,00 480,00\nValor liquido 480,00 Imposto IVA 23% 110,40 Total 590,40\nMontante devido. Obrigado pela sua preferencia.',
  nld: 'FACTUUR\nFactuurnummer: 2024-12 Factuurdatum: 03-05-2024\nOmschrijving Aantal Prijs Bedrag\nAdvies 4 120,00 480,00\nSubtotaal 480,00 BTW 21% 100,80 Totaal 580,80\nGraag betalen voor de vervaldatum. Bedankt voor uw opdracht.',
  pol: 'FAKTURA VAT nr 12/2024\nData wystawienia: 03.05.2024 Data sprzedazy: 03.05.2024\nSprzedawca: Firma Sp. z o.o. Nabywca: Klient\nNazwa towaru lub uslugi Ilosc Cena netto Wartosc netto Stawka VAT\nRazem do zaptaty: 590,40 zt Sposob zaptaty: przelew, termin zaptaty 14 dni',
} as const;

describe('detectLanguage', () => {
  it.each(Object.entries(TEXTS))('names %s from an invoice read by OCR', (language, text) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it('compares words without their accents, as a reading with the language model gives them', () => {
    expect(detectLanguage('Größe Menge Einzelpreis für die Rechnung und der Betrag')).toBe('deu');
    expect(detectLanguage('Sposób zapłaty: przelew, termin płatności, kwota brutto, wartość netto')).toBe('pol');
  });

  it('names nothing from too little text or two languages alike', () => {
    expect(detectLanguage('')).toBeNull();
    expect(detectLanguage('Total 480,00 IBAN DE89 3704 0044')).toBeNull();
    expect(detectLanguage(`${TEXTS.deu}\n${TEXTS.eng}`)).toBeNull();
  });

  it('is not fooled by one-letter specks or numbers', () => {
    expect(languageScores('a e i o w z 1 2 3 | — _ ~').eng).toBe(0);
    expect(detectLanguage('a e i o w z a e i o w z a e i o w z')).toBeNull();
  });

  it('reads a long text in linear time', () => {
    const long = TEXTS.deu.repeat(2_000);
    const started = performance.now();
    expect(detectLanguage(long)).toBe('deu');
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

/** An engine that reads a page as `pages[languages]` gives it, and records what it was asked. */
function fakeEngine(readings: Record<string, { text: string; confidence: number }>) {
  const calls: string[] = [];
  let languages = 'eng';
  return {
    calls,
    engine: {
      read: async (image: string, radians: number) => {
        calls.push(`read ${image} ${radians} ${languages}`);
        return readings[languages] ?? { text: '', confidence: 0 };
      },
      turn: async (image: string) => `${image}-turned`,
      useLanguages: async (next: string) => {
        calls.push(`use ${next}`);
        languages = next;
      },
    },
  };
}

describe('languageReader', () => {
  it('reads an English page once, with English only', async () => {
    const { engine, calls } = fakeEngine({ eng: { text: TEXTS.eng, confidence: 88 } });
    expect(await languageReader(engine).read('page')).toEqual({ text: TEXTS.eng, confidence: 88, languages: 'eng' });
    expect(calls).toEqual(['read page 0 eng']);
  });

  it('reads a German page again with deu+eng and keeps the more confident reading; the next page is read in German at once', async () => {
    const german = 'Rechnung Gesamtbetrag Größe Menge Einzelpreis für die Bestellung und der Betrag';
    const { engine, calls } = fakeEngine({ eng: { text: TEXTS.deu, confidence: 74 }, 'deu+eng': { text: german, confidence: 86 } });
    const reader = languageReader(engine);
    expect(await reader.read('page1')).toEqual({ text: german, confidence: 86, languages: 'deu+eng' });
    expect(await reader.read('page2')).toEqual({ text: german, confidence: 86, languages: 'deu+eng' });
    expect(calls).toEqual(['read page1 0 eng', 'use deu+eng', 'read page1 0 deu+eng', 'read page2 0 deu+eng']);
  });

  it('keeps the English reading when the language model reads the page less confidently', async () => {
    const { engine } = fakeEngine({ eng: { text: TEXTS.fra, confidence: 80 }, 'fra+eng': { text: 'mal lu', confidence: 60 } });
    expect(await languageReader(engine).read('page')).toEqual({ text: TEXTS.fra, confidence: 80, languages: 'eng' });
  });

  it('keeps the English reading when the language data does not load, and does not ask for it again', async () => {
    const { engine, calls } = fakeEngine({ eng: { text: TEXTS.pol, confidence: 70 } });
    const failing = {
      ...engine,
      useLanguages: async (next: string) => {
        calls.push(`use ${next}`);
        throw new Error('offline');
      },
    };
    const reader = languageReader(failing);
    expect(await reader.read('page1')).toEqual({ text: TEXTS.pol, confidence: 70, languages: 'eng' });
    expect(await reader.read('page2')).toEqual({ text: TEXTS.pol, confidence: 70, languages: 'eng' });
    expect(calls).toEqual(['read page1 0 eng', 'use pol+eng', 'read page2 0 eng']);
  });

  it('keeps the English reading of a page whose language is not clear', async () => {
    const { engine, calls } = fakeEngine({ eng: { text: 'Total 480,00', confidence: 90 } });
    expect((await languageReader(engine).read('page')).languages).toBe('eng');
    expect(calls).toEqual(['read page 0 eng']);
  });

  it('reads the upright page again: a page turned whole for English is not turned twice', async () => {
    // A poor first reading, a better one a quarter-turn off: upright.ts turns the page whole.
    const calls: string[] = [];
    let languages = 'eng';
    const engine = {
      read: async (image: string, radians: number) => {
        calls.push(`read ${image} ${radians} ${languages}`);
        if (image === 'page-turned') return { text: languages === 'eng' ? TEXTS.ita : 'Fattura italiana', confidence: languages === 'eng' ? 80 : 85 };
        return { text: '', confidence: radians > 0 ? 70 : 30 };
      },
      turn: async (image: string) => `${image}-turned`,
      useLanguages: async (next: string) => void (languages = next),
    };
    expect(await languageReader(engine).read('page')).toEqual({ text: 'Fattura italiana', confidence: 85, languages: 'ita+eng' });
    expect(calls.at(-1)).toBe('read page-turned 0 ita+eng');
  });
});

describe('a small image read poorly (enlarge.ts)', () => {
  /** An engine whose readings depend on the image: 'small' is noise, 'small-x2' (enlarged) reads `enlargedReading`. */
  function sizedEngine(enlargedReading: { text: string; confidence: number }, firstConfidence = 30) {
    const calls: string[] = [];
    const engine = {
      read: async (image: string, radians: number) => {
        calls.push(`read ${image} ${radians.toFixed(2)}`);
        return image.endsWith('-x2') ? enlargedReading : { text: 'ee ~ | nn', confidence: firstConfidence };
      },
      turn: async (image: string) => `${image}-turned`,
      useLanguages: async (next: string) => void calls.push(`use ${next}`),
      enlarge: async (image: string) => (image.startsWith('small') ? `${image}-x2` : null),
    };
    return { engine, calls };
  }

  it('is read again at twice its size, and the more confident reading kept', async () => {
    const { engine, calls } = sizedEngine({ text: TEXTS.eng, confidence: 64 });
    expect(await languageReader(engine).read('small')).toEqual({ text: TEXTS.eng, confidence: 64, languages: 'eng' });
    expect(calls.at(-1)).toBe('read small-x2 0.00');
  });

  it('keeps its first reading when the enlarged one is no better; a large image or a confident reading is not enlarged', async () => {
    const worse = sizedEngine({ text: 'x', confidence: 20 });
    expect((await languageReader(worse.engine).read('small')).text).toBe('ee ~ | nn');
    const large = sizedEngine({ text: TEXTS.eng, confidence: 90 });
    await languageReader(large.engine).read('large');
    expect(large.calls.some((call) => call.includes('-x2'))).toBe(false);
    const confident = sizedEngine({ text: TEXTS.eng, confidence: 90 }, 55);
    await languageReader(confident.engine).read('small');
    expect(confident.calls.some((call) => call.includes('-x2'))).toBe(false);
  });
});

describe('worthEnlarging', () => {
  it('is true for an image up to 1,000 pixels on its shorter side and 4 million pixels, false above and for no size', () => {
    expect(worthEnlarging(198, 837)).toBe(true);
    expect(worthEnlarging(2000, 1000)).toBe(true);
    expect(worthEnlarging(1240, 1753)).toBe(false);
    expect(worthEnlarging(0, 500)).toBe(false);
    expect(worthEnlarging(Number.NaN, 500)).toBe(false);
    // A long strip (a receipt's roll): not past 16 million pixels once enlarged.
    expect(worthEnlarging(1000, 4000)).toBe(true);
    expect(worthEnlarging(1000, 20_000)).toBe(false);
  });
});
