// The frame of the pages reached from the sign-in form (password reset): the
// brand above one card, as /auth has it.
import type * as React from 'react';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader } from '~/components/ui/card';
import { BRAND_NAME, TAGLINE } from '~/lib/site';

export function AuthFrame({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted px-4 py-12">
      <div className="w-full max-w-md">
        <div className="mb-6 text-center">
          <Link to="/" className="text-2xl font-bold tracking-tight">
            {BRAND_NAME}
          </Link>
          <p className="mt-1 text-sm text-muted-foreground">{TAGLINE}</p>
        </div>
        <Card>
          <CardHeader>
            <h1 className="text-lg font-semibold leading-none tracking-tight">{title}</h1>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
      </div>
    </main>
  );
}
