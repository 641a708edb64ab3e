// The seller as a public page or the client's view shows it (decision 045):
// its name, address, tax ID and registration, from the document's snapshot.
import { sellerAddressLines, sellerLegalLines, type Seller } from '~/lib/seller';

export function SellerIdentity({ seller, fallbackName }: { seller: Seller | null | undefined; fallbackName?: string }) {
  const name = seller?.name || fallbackName;
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
