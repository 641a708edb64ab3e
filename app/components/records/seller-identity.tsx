// The seller as a public page or the client's view shows it (decision 045):
// its name, address, tax ID and registration, from the document's snapshot.
import { sellerAddressLines, sellerLegalLines, type Seller } from '~/lib/seller';

export function SellerIdentity({ seller, fallbackName, withoutName = false }: {
  seller: Seller | null | undefined;
  fallbackName?: string;
  /** The name is shown elsewhere (a public page's brand band): the address and legal lines only. */
  withoutName?: boolean;
}) {
  const name = withoutName ? null : seller?.name || fallbackName;
  const lines = seller ? [...sellerAddressLines(seller), ...sellerLegalLines(seller)] : [];
  return (
    <div className="grid gap-0.5 text-sm" data-testid="seller-identity">
      {name ? <p className="font-medium break-words">{name}</p> : null}
      {lines.map((line) => (
        <p key={line} className="break-words text-muted-foreground">
          {line}
        </p>
      ))}
    </div>
  );
}
