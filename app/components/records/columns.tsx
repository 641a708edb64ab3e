// Columns most lists share, so each list says only what is its own.
import { formatShortDate } from '~/lib/dates';
import { formatMoney } from '~/lib/money';
import type { RecordColumn } from './record-table';

/** When the record was made: sortable, newest first. */
export function createdColumn<Row extends { created_at: string | null }>(header = 'Created'): RecordColumn<Row> {
  return {
    id: 'created',
    header,
    cell: (row) => (row.created_at ? <time dateTime={row.created_at}>{formatShortDate(row.created_at)}</time> : '—'),
    sort: { key: 'created_at', first: 'desc' },
    className: 'whitespace-nowrap text-muted-foreground',
  };
}

/** The record's total in its own currency: right aligned, sortable, largest first, also on a phone. */
export function totalColumn<Row extends { total: number | string | null; currency: string | null }>(): RecordColumn<Row> {
  return {
    id: 'total',
    header: 'Total',
    cell: (row) => (row.total === null ? '—' : formatMoney(Number(row.total), row.currency ?? 'USD')),
    sort: { key: 'total', first: 'desc' },
    numeric: true,
    phone: true,
  };
}
