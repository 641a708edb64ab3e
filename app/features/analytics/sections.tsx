// The analytics screen's sections: each figure of the range beside the
// previous period's, money per currency (never summed across currencies).
// Lists of figures (dl) rather than wide tables, so nothing scrolls sideways
// on a 390 px phone.
import { SectionHeading } from '~/components/page-header';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { formatWholeMoney } from '~/lib/money';
import { BarChart } from './charts/bar-chart';
import {
  change,
  share,
  previousOf,
  LEAD_SOURCE_LABELS,
  LEAD_STATUS_LABELS,
  type CashFigures,
  type PeriodFigures,
  type SalesFigures,
} from './figures';

const EMPTY_SALES = (currency: string): SalesFigures => ({ currency, quotes: 0, value: 0, sent: 0, signed: 0, signed_value: 0, pipeline_value: 0 });
const EMPTY_CASH = (currency: string): CashFigures => ({ currency, invoiced: 0, invoices: 0, collected: 0, overdue: 0, overdue_count: 0, days_to_pay: null });

export function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <SectionHeading>{title}</SectionHeading>
      </CardHeader>
      <CardContent className="grid gap-4">{children}</CardContent>
    </Card>
  );
}

/** One figure with the previous period's beneath it. */
function Figure({ label, value, previous, note }: { label: string; value: string; previous?: string; note?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="break-words text-lg font-semibold">{value}</dd>
      {previous !== undefined ? <dd className="text-xs text-muted-foreground">Previous period: {previous}</dd> : null}
      {note ? <dd className="text-xs text-muted-foreground">{note}</dd> : null}
    </div>
  );
}

function Figures({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-medium">{label}</h3>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">{children}</dl>
    </div>
  );
}

function None({ children }: { children: React.ReactNode }) {
  return <p className="text-sm text-muted-foreground">{children}</p>;
}

export function SalesSection({ current, previous }: { current: PeriodFigures; previous: PeriodFigures }) {
  return (
    <Section title="Sales">
      {current.sales.length === 0 ? <None>No quotes were made in this period.</None> : null}
      {current.sales.map((row) => {
        const before = previousOf(previous.sales, row.currency, EMPTY_SALES(row.currency));
        const money = (cents: number) => formatWholeMoney(cents, row.currency);
        const rate = (r: SalesFigures) => (r.sent === 0 ? '—' : `${Math.round((100 * r.signed) / r.sent)}%`);
        return (
          <Figures key={row.currency} label={`Quotes in ${row.currency}`}>
            <Figure label="Quotes" value={String(row.quotes)} previous={String(before.quotes)} />
            <Figure label="Quote value" value={money(row.value)} previous={money(before.value)} />
            <Figure label="Signed" value={`${row.signed} (${money(row.signed_value)})`} previous={`${before.signed} (${money(before.signed_value)})`} />
            <Figure label="Conversion (signed ÷ sent)" value={rate(row)} previous={rate(before)} />
            <Figure label="Open pipeline" value={money(row.pipeline_value)} previous={money(before.pipeline_value)} note="Sent or viewed, not yet signed" />
          </Figures>
        );
      })}
    </Section>
  );
}

export function CashSection({ current, previous }: { current: PeriodFigures; previous: PeriodFigures }) {
  return (
    <Section title="Cash">
      {current.cash.length === 0 ? <None>No invoices or payments in this period, and nothing overdue.</None> : null}
      {current.cash.map((row) => {
        const before = previousOf(previous.cash, row.currency, EMPTY_CASH(row.currency));
        const money = (cents: number) => formatWholeMoney(cents, row.currency);
        const days = (value: number | null) => (value === null ? '—' : `${value} days`);
        return (
          <Figures key={row.currency} label={`Invoices in ${row.currency}`}>
            <Figure label="Invoiced" value={money(row.invoiced)} previous={money(before.invoiced)} note={`${row.invoices} invoices`} />
            <Figure label="Collected" value={money(row.collected)} previous={money(before.collected)} />
            <Figure label="Overdue now" value={money(row.overdue)} note={`${row.overdue_count} invoices`} />
            <Figure label="Average days to pay" value={days(row.days_to_pay)} previous={days(before.days_to_pay)} />
          </Figures>
        );
      })}
    </Section>
  );
}

function countPoints(counts: Record<string, number>, labels: Record<string, string>) {
  return Object.keys(labels)
    .filter((key) => (counts[key] ?? 0) > 0)
    .map((key) => ({ label: labels[key], value: counts[key] }));
}

export function LeadsSection({ current, previous }: { current: PeriodFigures; previous: PeriodFigures }) {
  const sources = countPoints(current.leads.by_source, LEAD_SOURCE_LABELS);
  const statuses = countPoints(current.leads.by_status, LEAD_STATUS_LABELS);
  return (
    <Section title="Leads">
      <dl className="grid grid-cols-2 gap-3">
        <Figure label="New leads" value={String(current.leads.total)} previous={String(previous.leads.total)} note={change(current.leads.total, previous.leads.total)} />
      </dl>
      {current.leads.total === 0 ? (
        <None>No leads came in during this period.</None>
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <BarChart id="leads-by-source" caption="New leads by source in this period." labelHeading="Source" valueLabel="Leads" points={sources} />
          <BarChart id="leads-by-status" caption="New leads by their status now." labelHeading="Status" valueLabel="Leads" points={statuses} />
        </div>
      )}
    </Section>
  );
}

export function ClientsAndHelpdeskSection({ current, previous }: { current: PeriodFigures; previous: PeriodFigures }) {
  return (
    <Section title="Clients and helpdesk">
      <dl className="grid grid-cols-2 gap-3">
        <Figure label="New clients" value={String(current.clients.new_clients)} previous={String(previous.clients.new_clients)} />
        <Figure
          label="Helpdesk conversations"
          value={String(current.helpdesk.conversations)}
          previous={String(previous.helpdesk.conversations)}
        />
      </dl>
      <dl className="grid grid-cols-2 gap-3">
        <Figure
          label="First response"
          value={hours(current.helpdesk.first_response_hours)}
          previous={hours(previous.helpdesk.first_response_hours)}
          note={`${current.helpdesk.responded ?? 0} of ${current.helpdesk.conversations} answered`}
        />
      </dl>
      <HelpdeskQuality current={current} previous={previous} />
    </Section>
  );
}

/** SLA met % and CSAT of the range, each with an empty state when nothing fell due or nobody rated. */
function HelpdeskQuality({ current, previous }: { current: PeriodFigures; previous: PeriodFigures }) {
  const due = (h: PeriodFigures['helpdesk']) => (h.sla_met ?? 0) + (h.sla_missed ?? 0);
  const slaMet = (h: PeriodFigures['helpdesk']) => {
    const value = share(h.sla_met ?? 0, due(h));
    return value === null ? '—' : `${value}%`;
  };
  const csat = (h: PeriodFigures['helpdesk']) => (h.csat_average == null ? '—' : `${h.csat_average.toFixed(1)} / 5`);
  const now = current.helpdesk;
  return (
    <dl className="grid grid-cols-2 gap-3">
      {due(now) === 0 ? (
        <div className="min-w-0">
          <dt className="text-sm text-muted-foreground">SLA met</dt>
          <dd className="text-sm text-muted-foreground">No SLA target fell due in this period.</dd>
        </div>
      ) : (
        <Figure label="SLA met" value={slaMet(now)} previous={slaMet(previous.helpdesk)} note={`${now.sla_met ?? 0} of ${due(now)} targets met`} />
      )}
      {(now.csat_responses ?? 0) === 0 ? (
        <div className="min-w-0">
          <dt className="text-sm text-muted-foreground">CSAT</dt>
          <dd className="text-sm text-muted-foreground">No customer rated a conversation in this period.</dd>
        </div>
      ) : (
        <Figure
          label="CSAT"
          value={csat(now)}
          previous={csat(previous.helpdesk)}
          note={`${now.csat_responses} ${now.csat_responses === 1 ? 'response' : 'responses'}`}
        />
      )}
    </dl>
  );
}

function hours(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value} h`;
}

/** On-time delivery over the range's deliveries (logistics); an empty state without any. */
export function LogisticsSection({ current, previous }: { current: PeriodFigures; previous: PeriodFigures }) {
  const now = current.logistics;
  const before = previous.logistics;
  const rate = (l: PeriodFigures['logistics']) => {
    const value = l ? share(l.on_time, l.with_estimate) : null;
    return value === null ? '—' : `${value}%`;
  };
  return (
    <Section title="Logistics">
      {!now || now.delivered === 0 ? (
        <None>No shipment was delivered in this period.</None>
      ) : (
        <dl className="grid grid-cols-2 gap-3">
          <Figure label="On-time delivery" value={rate(now)} previous={rate(before)} note={`${now.on_time} of ${now.with_estimate} with an estimated date`} />
          <Figure label="Delivered" value={String(now.delivered)} previous={String(before?.delivered ?? 0)} />
        </dl>
      )}
    </Section>
  );
}

/** Compliance as it stands today (not a period): coverage and overdue reviews; an empty state without items. */
export function ComplianceSection({ current }: { current: PeriodFigures }) {
  const c = current.compliance;
  const coverage = c ? share(c.compliant, c.total) : null;
  return (
    <Section title="Compliance">
      {!c || c.total === 0 ? (
        <None>No compliance requirements are tracked yet.</None>
      ) : (
        <dl className="grid grid-cols-2 gap-3">
          <Figure label="Coverage" value={coverage === null ? '—' : `${coverage}%`} note={`${c.compliant} of ${c.total} requirements compliant, today`} />
          <Figure label="Overdue reviews" value={c.overdue_reviews >= 1000 ? '1,000+' : String(c.overdue_reviews)} note="Past their review date, today" />
        </dl>
      )}
    </Section>
  );
}
