import { Link } from 'react-router';
import type { Route } from './+types/pricing';
import { MarketingFooter, MarketingHeader } from '~/components/marketing-layout';
import { Badge } from '~/components/ui/badge';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '~/components/ui/card';
import { MODULES } from '~/lib/catalogue';
import { formatWholeDollars } from '~/lib/money';
import {
  BUNDLE_MIN_MODULES,
  BUNDLE_MONTHLY_PRICE_CENTS,
  MODULE_MONTHLY_PRICE_CENTS,
  SETUP_FEE_CENTS,
} from '~/lib/pricing';
import { loadPublicSiteInfo } from '~/lib/site.server';
import { marketingPage } from '~/lib/page-handle';

/** Static, edge-cached HTML: no JavaScript needed (app/lib/page-handle.ts). */
export const handle = marketingPage;

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Pricing — ${loaderData?.site.name ?? 'OpsHub Pro'}` },
  { name: 'description', content: `${formatWholeDollars(MODULE_MONTHLY_PRICE_CENTS)} per module per month, bundles from 2 modules.` },
];

export async function loader() {
  return { site: await loadPublicSiteInfo() };
}

const modulePrice = formatWholeDollars(MODULE_MONTHLY_PRICE_CENTS);
const setupFee = formatWholeDollars(SETUP_FEE_CENTS);
const bundlePrice = formatWholeDollars(BUNDLE_MONTHLY_PRICE_CENTS);

const PROMISES = ['Free trial on every module', 'Cancel anytime', '24/7 support', 'Regular updates'];

const FAQ = [
  {
    question: 'Is there a free trial?',
    answer: 'Yes. Every module comes with a free trial, and no credit card is required to start.',
  },
  {
    question: 'What is the setup fee for?',
    answer: `The optional ${setupFee} setup fee covers heavy data mapping: we import and map your existing data for you.`,
  },
  {
    question: 'How does bundle pricing work?',
    answer: `Any ${BUNDLE_MIN_MODULES} or more modules cost ${bundlePrice} per month in total — and that includes all 6.`,
  },
];

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { site } = loaderData;
  return (
    <div className="flex min-h-screen flex-col">
      <MarketingHeader siteName={site.name} />
      <main className="flex-1">
        <section className="mx-auto max-w-4xl px-4 pt-16 text-center sm:px-6">
          <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">Simple, Transparent Pricing</h1>
          <p className="mt-5">
            <Badge variant="blue" className="px-4 py-1 text-sm">
              {`${modulePrice}/month per module • Bundle pricing for 2+ modules`}
            </Badge>
          </p>
          <ul className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-muted-foreground">
            {PROMISES.map((promise) => (
              <li key={promise} className="flex items-center gap-2">
                <span aria-hidden="true" className="text-green-700">
                  ✓
                </span>
                {promise}
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="modules-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
          <h2 id="modules-heading" className="sr-only">
            Modules
          </h2>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {MODULES.map((module) => (
              <li key={module.key}>
                <Card className="flex h-full flex-col">
                  <CardHeader>
                    <CardTitle>{module.name}</CardTitle>
                    <CardDescription>{module.summary}</CardDescription>
                  </CardHeader>
                  <CardContent className="flex-1">
                    <p className="text-3xl font-bold">
                      {modulePrice}
                      <span className="text-sm font-normal text-muted-foreground">/month</span>
                    </p>
                    <p className="mt-1 text-sm text-muted-foreground">Setup fee: {setupFee} (optional)</p>
                  </CardContent>
                  <CardFooter>
                    <Link
                      to="/auth"
                      className={buttonClasses('default') + ' w-full'}
                      aria-label={`Start Free Trial of ${module.name}`}
                    >
                      Start Free Trial
                    </Link>
                  </CardFooter>
                </Card>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="bundle-heading" className="bg-accent">
          <div className="mx-auto max-w-4xl px-4 py-14 text-center sm:px-6">
            <h2 id="bundle-heading" className="text-3xl font-bold tracking-tight">
              Bundle &amp; save
            </h2>
            <p className="mt-4 text-lg">
              Any {BUNDLE_MIN_MODULES} or more modules for <strong>{bundlePrice}/month</strong> — all 6 included.
            </p>
            <p className="mt-2 text-muted-foreground">
              Optional {setupFee} setup fee for heavy data mapping. Free trial, no credit card required.
            </p>
            <Link to="/auth" className={buttonClasses('default', 'lg') + ' mt-8'}>
              Start Free Trial
            </Link>
          </div>
        </section>

        <section aria-labelledby="faq-heading" className="mx-auto max-w-3xl px-4 py-14 sm:px-6">
          <h2 id="faq-heading" className="text-center text-3xl font-bold tracking-tight">
            Frequently asked questions
          </h2>
          <dl className="mt-8 space-y-6">
            {FAQ.map((item) => (
              <div key={item.question} className="rounded-lg border border-border p-5">
                <dt className="font-semibold">{item.question}</dt>
                <dd className="mt-2 text-muted-foreground">{item.answer}</dd>
              </div>
            ))}
          </dl>
        </section>
      </main>
      <MarketingFooter siteName={site.name} contactEmail={site.contactEmail} />
    </div>
  );
}
