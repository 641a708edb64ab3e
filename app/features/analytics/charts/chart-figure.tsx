import type * as React from 'react';
import type { ChartPoint } from './scale';

/**
 * A chart as a figure: the SVG is one image named by the caption, and the
 * same figures follow as a table for screen readers (hidden from sight), so
 * nothing is known only to those who can see the drawing.
 */
export function ChartFigure({
  id,
  caption,
  valueLabel,
  labelHeading = 'Month',
  points,
  formatValue,
  children,
}: {
  id: string;
  caption: string;
  valueLabel: string;
  labelHeading?: string;
  points: ChartPoint[];
  formatValue: (value: number) => string;
  children: (labelledBy: string) => React.ReactNode;
}) {
  const captionId = `${id}-caption`;
  return (
    <figure className="grid gap-2">
      {children(captionId)}
      <figcaption id={captionId} className="text-sm text-muted-foreground">
        {caption}
      </figcaption>
      {/* The wrapper is what is visually hidden: a table grows to its content whatever its width says, and would widen the page on a phone. */}
      <div className="sr-only">
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{labelHeading}</th>
              <th scope="col">{valueLabel}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.label}>
                <th scope="row">{point.label}</th>
                <td>{formatValue(point.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
