import type { FieldSource } from './extraction/field-source';

/** Where a field's value was read: the words around it in the document's text, the value highlighted. */
export function FieldSourceNote({ source, id }: { source: FieldSource | undefined; id?: string }) {
  if (!source) return null;
  return (
    <p id={id} className="min-w-0 text-xs text-muted-foreground [overflow-wrap:anywhere]" data-testid="field-source">
      <span className="font-medium">In the text: </span>
      {source.before}
      <mark className="rounded-sm bg-amber-100 px-0.5 text-amber-950">{source.match}</mark>
      {source.after}
    </p>
  );
}
