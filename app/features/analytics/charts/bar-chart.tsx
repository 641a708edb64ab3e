import { ChartFigure } from './chart-figure';
import { CHART, compactNumber, niceCeiling, plotArea, ticks, type ChartPoint } from './scale';

/** A vertical bar chart drawn on the server as SVG: it shows with or without JavaScript. */
export function BarChart({
  id,
  caption,
  valueLabel,
  labelHeading,
  points,
  formatValue = (value) => value.toLocaleString('en-US'),
}: {
  id: string;
  caption: string;
  valueLabel: string;
  labelHeading?: string;
  points: ChartPoint[];
  formatValue?: (value: number) => string;
}) {
  const area = plotArea();
  const top = niceCeiling(Math.max(...points.map((point) => point.value)));
  const slot = area.width / points.length;
  const barWidth = slot * 0.6;
  const y = (value: number) => area.bottom - (value / top) * area.height;

  return (
    <ChartFigure id={id} caption={caption} valueLabel={valueLabel} labelHeading={labelHeading} points={points} formatValue={formatValue}>
      {(labelledBy) => (
        <svg
          viewBox={`0 0 ${CHART.width} ${CHART.height}`}
          role="img"
          aria-labelledby={labelledBy}
          className="h-auto w-full"
          data-chart="bar"
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
            {points.map((point, index) => {
              const x = area.left + slot * index + (slot - barWidth) / 2;
              return (
                <g key={point.label}>
                  <rect x={x} y={y(point.value)} width={barWidth} height={area.bottom - y(point.value)} rx={4} className="fill-primary">
                    <title>{`${point.label}: ${formatValue(point.value)}`}</title>
                  </rect>
                  <text x={x + barWidth / 2} y={area.bottom + 18} textAnchor="middle" className="fill-muted-foreground text-[12px]">
                    {point.label}
                  </text>
                </g>
              );
            })}
          </g>
        </svg>
      )}
    </ChartFigure>
  );
}
