import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { companyOrName, newClientSchema } from '../../app/features/clients/schema.ts';
import { newLeadSchema } from '../../app/features/leads/schema.ts';
import { newQuoteSchema, quoteTotalCents } from '../../app/features/quotes/schema.ts';
import { errorsOf, formOf, valueOf } from './support/schemas.ts';

const quote = {
  contact_name: 'Grace Hopper',
  contact_email: 'grace@navy.test',
  company: 'Navy Labs',
  description: 'Compiler consulting',
  unit_price: '1250.50',
  quantity: '3',
};

describe('new quote form (docs/product-guide.md)', () => {
  it('turns the price into cents, with USD and 30 days by default; an emptied quantity is an error, not 1', () => {
    const { currency: _c, expires_in_days: _e, ...rest } = quote as Record<string, string>;
    const value = valueOf(newQuoteSchema, rest);
    expect(value).toMatchObject({ unit_price: 125_050, quantity: 3, currency: 'USD', expires_in_days: 30 });
    expect(errorsOf(newQuoteSchema, { ...quote, quantity: '' }).quantity).toEqual(['Quantity is required']);
    expect(quoteTotalCents(valueOf(newQuoteSchema, quote))).toBe(375_150);
  });

  it('answers each required field and each bad value', () => {
    expect(errorsOf(newQuoteSchema, {})).toMatchObject({
      contact_name: ['Contact name is required'],
      contact_email: ['Contact email is required'],
      company: ['Company is required'],
      description: ['Description is required'],
      unit_price: ['Unit price is required'],
    });
    expect(errorsOf(newQuoteSchema, { ...quote, unit_price: '1.005' }).unit_price).toEqual([
      'Unit price must be an amount of at least 0 with up to 2 decimals',
    ]);
    expect(errorsOf(newQuoteSchema, { ...quote, unit_price: '21474836.48' }).unit_price).toEqual(['Unit price is too large']);
    expect(errorsOf(newQuoteSchema, { ...quote, quantity: '1.5' }).quantity).toEqual(['Quantity must be a whole number of at least 1']);
    expect(errorsOf(newQuoteSchema, { ...quote, currency: 'XYZ' }).currency).toEqual(['Choose a currency']);
    // The product's one list: CHF and JPY are quoted; JPY in whole yen only.
    expect(valueOf(newQuoteSchema, { ...quote, currency: 'CHF' }).currency).toBe('CHF');
    expect(errorsOf(newQuoteSchema, { ...quote, currency: 'JPY', unit_price: '1000.50' }).unit_price).toEqual(['Unit price must be a whole amount in JPY']);
    expect(valueOf(newQuoteSchema, { ...quote, currency: 'JPY', unit_price: '1000' }).unit_price).toBe(100_000);
    expect(errorsOf(newQuoteSchema, { ...quote, expires_in_days: '45' }).expires_in_days).toEqual(['Choose an expiry']);
  });
});

const lead = { name: 'Katherine Johnson', email: 'katherine@orbit.test', company: 'Orbit Mechanics' };

describe('new lead form (docs/product-guide.md)', () => {
  it('needs name, email and company; the source defaults to website and interests to none', () => {
    expect(valueOf(newLeadSchema, lead)).toMatchObject({ ...lead, source: 'website', interest: [] });
    expect(errorsOf(newLeadSchema, {})).toMatchObject({
      name: ['Full name is required'],
      email: ['Email is required'],
      company: ['Company is required'],
    });
  });

  it('keeps every ticked interest and refuses an unknown one', () => {
    const form = formOf({ ...lead, source: 'email' });
    form.append('interest', 'cpq');
    form.append('interest', 'rfp');
    const submission = parseWithZod(form, { schema: newLeadSchema });
    expect(submission.status === 'success' && submission.value).toMatchObject({ source: 'email', interest: ['cpq', 'rfp'] });
    form.append('interest', 'teleportation');
    expect(parseWithZod(form, { schema: newLeadSchema }).status).toBe('error');
  });
});

describe('new client form (docs/product-guide.md)', () => {
  it('needs a name and a valid email; the company falls back to the name', () => {
    const client = valueOf(newClientSchema, { name: 'Solo Trader', email: 'solo@example.test' });
    expect(companyOrName(client)).toBe('Solo Trader');
    expect(companyOrName(valueOf(newClientSchema, { name: 'Dorothy', email: 'd@x.test', company: 'Fortran Works' }))).toBe('Fortran Works');
    expect(errorsOf(newClientSchema, { name: ' ', email: 'nope' })).toMatchObject({
      name: ['Name is required'],
      email: ['Enter a valid email address'],
    });
  });
});
