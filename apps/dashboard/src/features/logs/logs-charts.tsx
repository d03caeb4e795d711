import type { LogStats } from '../../api/types';

type Bucket = LogStats['buckets'][number];

const WIDTH = 600;
const HEIGHT = 160;
const PAD = { left: 44, right: 8, top: 8, bottom: 22 };
const plotW = WIDTH - PAD.left - PAD.right;
const plotH = HEIGHT - PAD.top - PAD.bottom;

/** Times on the x axis: the clock for a few hours, the day and clock for a day or more. */
const timeLabel = (iso: string, spanMs: number) =>
  new Intl.DateTimeFormat(
    'en',
    spanMs >= 7 * 86_400_000 ? { month: 'short', day: 'numeric' } : spanMs >= 12 * 3_600_000 ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  ).format(new Date(iso));

/** A round number ≥ `value` for the top of the y axis. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function Axes({ buckets, max, unit }: { buckets: Bucket[]; max: number; unit: string }) {
  const span = buckets.length > 1 ? Date.parse(buckets.at(-1)!.time) - Date.parse(buckets[0]!.time) : 0;
  return (
    <g className="chart-axes" aria-hidden="true">
      <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top + plotH} y2={PAD.top + plotH} />
      <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top} y2={PAD.top} className="chart-grid" />
      <text x={PAD.left - 6} y={PAD.top + 4} textAnchor="end">{`${max}${unit}`}</text>
      <text x={PAD.left - 6} y={PAD.top + plotH} textAnchor="end">0</text>
      {buckets.length > 0 && (
        <>
          <text x={PAD.left} y={HEIGHT - 6}>{timeLabel(buckets[0]!.time, span)}</text>
          {buckets.length > 2 && (
            <text x={PAD.left + plotW / 2} y={HEIGHT - 6} textAnchor="middle">
              {timeLabel(buckets[Math.floor(buckets.length / 2)]!.time, span)}
            </text>
          )}
          <text x={WIDTH - PAD.right} y={HEIGHT - 6} textAnchor="end">{timeLabel(buckets.at(-1)!.time, span)}</text>
        </>
      )}
    </g>
  );
}

/** Requests per bucket as stacked bars: successes below, errors (status ≥ 400) on top. */
export function RequestsChart({ buckets }: { buckets: Bucket[] }) {
  const max = niceMax(Math.max(0, ...buckets.map((b) => b.count)));
  const slot = plotW / Math.max(1, buckets.length);
  const bar = Math.max(1, slot * 0.8);
  const y = (n: number) => (n / max) * plotH;
  const total = buckets.reduce((sum, b) => sum + b.count, 0);
  const errors = buckets.reduce((sum, b) => sum + b.errors, 0);
  return (
    <figure className="chart">
      <figcaption>
        Requests <span className="legend legend-ok">success</span> <span className="legend legend-error">error</span>
      </figcaption>
      <svg role="img" aria-label="Requests over time" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none">
        <title>{`Requests over time: ${total} requests, ${errors} errors`}</title>
        <Axes buckets={buckets} max={max} unit="" />
        {buckets.map((b, i) => {
          const x = PAD.left + i * slot + (slot - bar) / 2;
          const ok = y(b.count - b.errors);
          const bad = y(b.errors);
          return (
            <g key={b.time}>
              {ok > 0 && <rect className="bar-ok" x={x} y={PAD.top + plotH - ok} width={bar} height={ok} />}
              {bad > 0 && <rect className="bar-error" x={x} y={PAD.top + plotH - ok - bad} width={bar} height={bad} />}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

const SERIES = [
  { key: 'p50_ms', label: 'p50', className: 'line-p50' },
  { key: 'p95_ms', label: 'p95', className: 'line-p95' },
  { key: 'p99_ms', label: 'p99', className: 'line-p99' },
] as const;

/** p50, p95 and p99 per bucket as lines; an empty bucket breaks the line. */
export function LatencyChart({ buckets }: { buckets: Bucket[] }) {
  const max = niceMax(Math.max(0, ...buckets.map((b) => b.p99_ms ?? 0)));
  const slot = plotW / Math.max(1, buckets.length);
  const point = (i: number, value: number) => `${(PAD.left + i * slot + slot / 2).toFixed(1)},${(PAD.top + plotH - (value / max) * plotH).toFixed(1)}`;
  const paths = SERIES.map(({ key }) => {
    const segments: string[] = [];
    let current: string[] = [];
    buckets.forEach((b, i) => {
      const value = b[key];
      if (value === null) {
        if (current.length) segments.push(current.join(' '));
        current = [];
      } else current.push(point(i, value));
    });
    if (current.length) segments.push(current.join(' '));
    return segments;
  });
  return (
    <figure className="chart">
      <figcaption>
        Latency (ms){' '}
        {SERIES.map((s) => (
          <span key={s.key} className={`legend ${s.className}`}>
            {s.label}
          </span>
        ))}
      </figcaption>
      <svg role="img" aria-label="Latency over time" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none">
        <title>Latency over time: p50, p95 and p99 in milliseconds</title>
        <Axes buckets={buckets} max={max} unit=" ms" />
        {SERIES.map((s, index) =>
          paths[index]!.map((points, j) =>
            points.includes(' ') ? (
              <polyline key={`${s.key}-${j}`} className={s.className} points={points} fill="none" />
            ) : (
              <circle key={`${s.key}-${j}`} className={s.className} cx={points.split(',')[0]} cy={points.split(',')[1]} r={3.5} />
            ),
          ),
        )}
      </svg>
    </figure>
  );
}
