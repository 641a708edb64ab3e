import { Link, redirect } from 'react-router';
import type { Route } from './+types/home';
import { MarketingFooter, MarketingHeader } from '~/components/marketing-layout';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '~/components/ui/card';
import { MODULES, PREVIEW_NOTE } from '~/lib/catalogue';
import { formatWholeDollars } from '~/lib/money';
import { MODULE_MONTHLY_PRICE_CENTS } from '~/lib/pricing';
import { redirectSignedInToDashboard } from '~/lib/auth.server';
import { loadPublicSiteInfo } from '~/lib/site.server';
import { getRequestSupabase } from '~/lib/supabase.server';
import { DEFAULT_DESCRIPTION, marketingPage } from '~/lib/page-handle';

/** Static, edge-cached HTML: no JavaScript needed (app/lib/page-handle.ts). */
export const handle = marketingPage;

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.site.name ?? 'OpsHub Pro'} — ${loaderData?.site.description ?? ''}` },
  { name: 'description', content: loaderData?.site.description ?? DEFAULT_DESCRIPTION },
];

export async function loader({ url, context }: Route.LoaderArgs) {
  // The sign-up confirmation link lands here (docs/product-guide.md) with a PKCE code.
  const code = url.searchParams.get('code');
  if (code) {
    const { error } = await getRequestSupabase(context).supabase.auth.exchangeCodeForSession(code);
    if (!error) throw redirect('/dashboard');
  }
  await redirectSignedInToDashboard(context);
  return { site: await loadPublicSiteInfo() };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { site } = loaderData;
  return (
    <div className="flex min-h-screen flex-col">
      <MarketingHeader siteName={site.name} />
      <main className="flex-1">
        <section className="bg-gradient-to-b from-accent to-background">
          <div className="mx-auto max-w-4xl px-4 py-20 text-center sm:px-6 sm:py-28">
            <h1 className="text-4xl font-extrabold tracking-tight sm:text-6xl">{site.name}</h1>
            <p className="mt-4 text-lg text-muted-foreground sm:text-xl">{site.description}</p>
            <p className="mx-auto mt-4 max-w-2xl text-base text-muted-foreground">
              Leads, quotes, clients, messages, invoices, shipments, documents, RFPs and compliance — one hub that runs
              your operations and automates the busywork.
            </p>
            <div className="mt-8 flex flex-wrap justify-center gap-3">
              <Link to="/auth" className={buttonClasses('default', 'lg')}>
                Start Free Trial
              </Link>
              <Link to="/auth" className={buttonClasses('outline', 'lg')}>
                Sign In
              </Link>
              <Link to="/pricing" className={buttonClasses('secondary', 'lg')}>
                View Pricing
              </Link>
            </div>
          </div>
        </section>

        <section aria-labelledby="modules-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="modules-heading" className="text-center text-3xl font-bold tracking-tight">
            Six modules. Pick what you need.
          </h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {MODULES.map((module) => (
              <li key={module.key}>
                <Card className="flex h-full flex-col">
                  <CardHeader>
                    <CardTitle className="flex flex-wrap items-center gap-2">
                      {module.name}
                      {module.preview ? (
                        <span className="rounded-full border border-border px-2 py-0.5 text-xs font-medium text-muted-foreground">Preview</span>
                      ) : null}
                    </CardTitle>
                    <CardDescription>{module.preview ? `${module.summary} ${PREVIEW_NOTE}` : module.summary}</CardDescription>
                  </CardHeader>
                  <CardContent className="flex-1">
                    <p className="mb-4 text-2xl font-bold">
                      {formatWholeDollars(MODULE_MONTHLY_PRICE_CENTS)}
                      <span className="text-sm font-normal text-muted-foreground">/month</span>
                    </p>
                    <ul className="space-y-2 text-sm">
                      {module.features.map((feature) => (
                        <li key={feature} className="flex gap-2">
                          <span aria-hidden="true" className="text-primary">
                            ✓
                          </span>
                          {feature}
                        </li>
                      ))}
                    </ul>
                  </CardContent>
                  <CardFooter>
                    <Link
                      to="/auth"
                      className={buttonClasses('default', 'default') + ' w-full'}
                      aria-label={`Get Started with ${module.name}`}
                    >
                      Get Started
                    </Link>
                  </CardFooter>
                </Card>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="cta-heading" className="bg-primary text-primary-foreground">
          <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6">
            <h2 id="cta-heading" className="text-3xl font-bold tracking-tight">
              Ready to automate your operations?
            </h2>
            <p className="mt-3 text-lg opacity-90">Start your free trial today. No credit card required, cancel anytime.</p>
            <Link to="/auth" className={buttonClasses('secondary', 'lg') + ' mt-8'}>
              Start Free Trial
            </Link>
          </div>
        </section>
      </main>
      <MarketingFooter siteName={site.name} contactEmail={site.contactEmail} />
    </div>
  );
}
