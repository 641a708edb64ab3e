// Shared geometry of the hand-rolled SVG charts: a nice round top for the
// value axis and evenly spaced ticks, so both charts read the same way.

export interface ChartPoint {
  label: string;
  value: number;
}

/** The smallest 1, 2, 2.5 or 5 × 10ⁿ at or above `max`, so the axis ends on a round number. */
export function niceCeiling(max: number): number {
  if (max <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * magnitude >= max) return step * magnitude;
  }
  return 10 * magnitude;
}

/** `count + 1` evenly spaced tick values from 0 to `top`. */
export function ticks(top: number, count = 4): number[] {
  return Array.from({ length: count + 1 }, (_, index) => (top / count) * index);
}

/** 45000 → '45k', 1200000 → '1.2M': short labels for the value axis. */
export function compactNumber(value: number): string {
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

export const CHART = {
  width: 600,
  height: 260,
  padding: { top: 16, right: 16, bottom: 32, left: 48 },
} as const;

export function plotArea() {
  const { width, height, padding } = CHART;
  return {
    left: padding.left,
    top: padding.top,
    width: width - padding.left - padding.right,
    height: height - padding.top - padding.bottom,
    bottom: height - padding.bottom,
  };
}
