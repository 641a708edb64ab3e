// Where a link to one quote goes: its page (the list when a row has no id to name).

export function quoteHref(quote: { id: string | null }): string {
  return quote.id ? `/quotes/${quote.id}` : '/quotes';
}
