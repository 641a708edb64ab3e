import * as React from 'react';
import type { Tone } from '~/lib/tones';
import { cn } from '~/lib/utils';

// The classes of each tone of the product's colour language (app/lib/tones.ts).
const variants: Record<Tone, string> = {
  default: 'border-transparent bg-primary text-primary-foreground',
  secondary: 'border-transparent bg-secondary text-secondary-foreground',
  outline: 'border-border text-foreground',
  red: 'border-transparent bg-red-100 text-red-800',
  blue: 'border-transparent bg-blue-100 text-blue-800',
  purple: 'border-transparent bg-purple-100 text-purple-800',
  green: 'border-transparent bg-green-100 text-green-800',
  amber: 'border-transparent bg-amber-100 text-amber-900',
  gray: 'border-transparent bg-gray-100 text-gray-800',
};

export type BadgeVariant = Tone;

export interface BadgeProps extends React.ComponentProps<'span'> {
  variant?: BadgeVariant;
}

export function Badge({ className, variant = 'default', ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
