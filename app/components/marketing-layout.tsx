import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { COPYRIGHT_YEAR } from '~/lib/pricing';

export function MarketingHeader({ siteName }: { siteName: string }) {
  return (
    <header className="border-b border-border bg-background/95">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-4 sm:px-6">
        <Link to="/" className="text-lg font-bold tracking-tight">
          {siteName}
        </Link>
        <div className="flex items-center gap-2">
          <Link to="/pricing" className={buttonClasses('ghost', 'sm')}>
            Pricing
          </Link>
          <Link to="/auth" className={buttonClasses('outline', 'sm')}>
            Sign In
          </Link>
        </div>
      </nav>
    </header>
  );
}

export function MarketingFooter({ siteName, contactEmail }: { siteName: string; contactEmail: string }) {
  return (
    <footer className="border-t border-border bg-muted">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-8 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>
          Contact us:{' '}
          <a className="font-medium text-primary underline-offset-4 hover:underline" href={`mailto:${contactEmail}`}>
            {contactEmail}
          </a>
        </p>
        <p>
          {`© ${COPYRIGHT_YEAR} ${siteName}. All rights reserved.`}
        </p>
      </div>
    </footer>
  );
}
