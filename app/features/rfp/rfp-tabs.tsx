// The /rfp tabs (issue 38): Responses (/rfp), Radar (/rfp/radar) and the answer library (/rfp/answers),
// plain links by URL (no JavaScript needed), the current one marked for assistive technology as well as by
// its look.
import { Link } from 'react-router';
import { cn } from '~/lib/utils';

const TABS = [
  { to: '/rfp', label: 'Responses' },
  { to: '/rfp/radar', label: 'Radar' },
  { to: '/rfp/answers', label: 'Answer library' },
] as const;

export function RfpTabs({ current }: { current: (typeof TABS)[number]['to'] }) {
  return (
    <nav aria-label="RFP sections" className="mb-6 flex gap-1 border-b">
      {TABS.map((tab) => (
        <Link
          key={tab.to}
          to={tab.to}
          aria-current={tab.to === current ? 'page' : undefined}
          className={cn(
            '-mb-px border-b-2 px-4 py-2 text-sm font-medium',
            tab.to === current ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
          )}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
