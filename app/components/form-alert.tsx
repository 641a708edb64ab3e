// A form's own error (not one field's): what the server answered, shown above
// the form beside the toast (which fades), and focused so a keyboard or screen
// reader user is taken to it. Without JavaScript the browser's autofocus does
// the focusing on the page the post answered with; with it, the effect does,
// each time a new answer arrives.
import { useEffect, useRef } from 'react';

export function FormAlert({ id, title, errors }: { id: string; title: string; errors: string[] | undefined }) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = errors && errors.length > 0;
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [errors, shown]);
  if (!shown) return <div id={id} hidden />;
  return (
    <div
      ref={ref}
      id={id}
      role="alert"
      tabIndex={-1}
      autoFocus
      className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive outline-none focus-visible:ring-2 focus-visible:ring-destructive"
    >
      <p className="font-semibold">{title}</p>
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}
