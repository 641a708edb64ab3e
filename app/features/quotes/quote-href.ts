// Where a link to one quote goes. A quote has no page of its own yet (the quote
// pages of the cpq module will add /quotes/:id and change only this): until then
// the list, searched for the quote's number, shows it.

export function quoteHref(quote: { quote_number: string | null }): string {
  return quote.quote_number ? `/quotes?q=${encodeURIComponent(quote.quote_number)}` : '/quotes';
}
