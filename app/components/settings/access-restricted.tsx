import { ShieldAlert } from '~/components/icons';
import { Card, CardContent } from '~/components/ui/card';

/**
 * Shown instead of a form the signed-in role may not use (docs/product-guide.md): 'Access
 * Restricted', or 'Access Denied' for the master-account rule.
 */
export function AccessRestricted({ title, message }: { title: string; message: string }) {
  return (
    <Card role="region" aria-labelledby="access-restricted-title">
      <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
        <ShieldAlert className="size-10 text-muted-foreground" aria-hidden="true" />
        <h2 id="access-restricted-title" className="text-xl font-semibold">
          {title}
        </h2>
        <p className="max-w-md text-sm text-muted-foreground">{message}</p>
      </CardContent>
    </Card>
  );
}
