import { useRef } from 'react';

/**
 * Focus return for dialogs opened by a link rather than a Radix Trigger (the
 * URL dialogs, the mobile navigation): Radix gives focus back only to its own
 * Trigger, so without one it would land on <body> and a keyboard user would
 * start again from the top of the page. The element that had focus when the
 * dialog opened gets it back when it closes; when that element is gone (the
 * row just deleted) or the dialog was opened by loading its URL, the fallback
 * (or else the page's first heading) does.
 */
export function useFocusReturn(fallback?: () => HTMLElement | null) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    },
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault();
      const target = opener.current?.isConnected ? opener.current : (fallback?.() ?? firstHeading());
      opener.current = null;
      target?.focus();
    },
  };
}

function firstHeading(): HTMLElement | null {
  const heading = document.querySelector<HTMLElement>('main h1');
  if (heading && !heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  return heading;
}
