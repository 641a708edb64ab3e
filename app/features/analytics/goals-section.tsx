// Monthly Goals on /analytics: each target an admin set on Settings →
// Account with this calendar month's figure so far, as a bar (a meter for
// assistive technology) and in words. Money per currency.
import { Link } from 'react-router';
import { formatWholeMoney } from '~/lib/money';
import { goalProgress, type Goals } from './goals';
import { Section } from './sections';

const dateFormat = new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const day = (iso: string) => dateFormat.format(new Date(`${iso}T00:00:00Z`));

export function GoalsSection({ goals, isAdmin }: { goals: Goals | undefined; isAdmin: boolean }) {
  const rows = goalProgress(goals);
  return (
    <Section title="Monthly Goals">
      {rows.length === 0 || !goals ? (
        <p className="text-sm text-muted-foreground" data-goals-empty="">
          No monthly goals yet.{' '}
          {isAdmin ? (
            <>
              Set them on <Link to="/settings/account#goals" className="underline">Settings → Account</Link>.
            </>
          ) : (
            'An admin sets them on Settings → Account.'
          )}
        </p>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">
            {day(goals.month_from)} – {day(goals.month_to)}, this month so far.
          </p>
          <ul className="grid gap-3">
            {rows.map((row) => {
              const show = (value: number) => (row.currency ? formatWholeMoney(value, row.currency) : value.toLocaleString('en-US'));
              return (
                <li key={row.key} className="grid gap-1" data-goal={row.key}>
                  <div className="flex flex-wrap justify-between gap-x-2 text-sm">
                    <span className="font-medium">{row.label}</span>
                    <span>
                      {show(row.actual)} of {show(row.target)} ({row.percent}%)
                    </span>
                  </div>
                  <div
                    role="meter"
                    aria-label={`${row.label}: ${row.percent}% of the goal`}
                    aria-valuemin={0}
                    aria-valuemax={row.target}
                    aria-valuenow={Math.min(row.actual, row.target)}
                    className="h-2 w-full overflow-hidden rounded-full bg-muted"
                  >
                    <div className="h-full rounded-full bg-primary" style={{ width: `${Math.min(100, row.percent)}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </Section>
  );
}
