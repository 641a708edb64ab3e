import type * as React from 'react';
import { Label } from '~/components/ui/label';

/**
 * A labelled control with its error list. The control itself comes from
 * Conform's getInputProps, which sets id, name, aria-invalid and
 * aria-describedby (pointing at `errorId`).
 */
export function FormField({
  label,
  htmlFor,
  errorId,
  errors,
  hint,
  hintId,
  children,
}: {
  label: string;
  htmlFor: string;
  errorId: string;
  errors?: string[];
  hint?: string;
  /** Give the hint an id to point the control's aria-describedby at it. */
  hintId?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
      {hint ? <p id={hintId} className="text-xs text-muted-foreground">{hint}</p> : null}
      <div id={errorId} className="min-h-0 text-sm text-destructive" aria-live="polite">
        {errors?.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
    </div>
  );
}
