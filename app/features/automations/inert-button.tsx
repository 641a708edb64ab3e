import type * as React from 'react';
import { Button, type ButtonProps } from '~/components/ui/button';
import { NOT_AVAILABLE_TEXT } from './simulated';

/**
 * A button the spec shows but gives no behaviour (invoice Download/View, the
 * automation buttons, the analytics Date Range). It stays in the tab order and
 * tells assistive technology, in its name, that it does nothing here.
 */
export function InertButton({ children, ...props }: Omit<ButtonProps, 'type' | 'onClick'> & { children: React.ReactNode }) {
  return (
    <Button type="button" aria-disabled="true" title={NOT_AVAILABLE_TEXT} {...props}>
      {children}
      <span className="sr-only"> ({NOT_AVAILABLE_TEXT.toLowerCase()})</span>
    </Button>
  );
}
