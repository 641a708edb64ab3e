import { ChartFigure } from './chart-figure';
import { CHART, compactNumber, niceCeiling, plotArea, ticks, type ChartPoint } from './scale';

/** A line chart with a shaded area, drawn on the server as SVG. */
export function LineChart({
  id,
  caption,
  valueLabel,
  points,
  formatValue = (value) => value.toLocaleString('en-US'),
}: {
  id: string;
  caption: string;
  valueLabel: string;
  points: ChartPoint[];
  formatValue?: (value: number) => string;
}) {
  const area = plotArea();
  const top = niceCeiling(Math.max(...points.map((point) => point.value)));
  const step = points.length > 1 ? area.width / (points.length - 1) : 0;
  const x = (index: number) => area.left + step * index;
  const y = (value: number) => area.bottom - (value / top) * area.height;
  const line = points.map((point, index) => `${x(index)},${y(point.value)}`).join(' ');
  const shade = `${area.left},${area.bottom} ${line} ${x(points.length - 1)},${area.bottom}`;

  return (
    <ChartFigure id={id} caption={caption} valueLabel={valueLabel} points={points} formatValue={formatValue}>
      {(labelledBy) => (
        <svg
          viewBox={`0 0 ${CHART.width} ${CHART.height}`}
          role="img"
          aria-labelledby={labelledBy}
          className="h-auto w-full"
          data-chart="line"
        >
          <g aria-hidden="true">
            {ticks(top).map((tick) => (
              <g key={tick}>
                <line x1={area.left} x2={area.left + area.width} y1={y(tick)} y2={y(tick)} className="stroke-border" />
                <text x={area.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" className="fill-muted-foreground text-[11px]">
                  {compactNumber(tick)}
                </text>
              </g>
            ))}
            <polygon points={shade} className="fill-primary/10" />
            <polyline points={line} fill="none" strokeWidth={2.5} strokeLinejoin="round" className="stroke-primary" />
            {points.map((point, index) => (
              <g key={point.label}>
                <circle cx={x(index)} cy={y(point.value)} r={4} className="fill-background stroke-primary" strokeWidth={2}>
                  <title>{`${point.label}: ${formatValue(point.value)}`}</title>
                </circle>
                <text x={x(index)} y={area.bottom + 18} textAnchor="middle" className="fill-muted-foreground text-[12px]">
                  {point.label}
                </text>
              </g>
            ))}
          </g>
        </svg>
      )}
    </ChartFigure>
  );
}
