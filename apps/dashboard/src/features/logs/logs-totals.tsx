import type { LogStats } from '../../api/types';

const ms = (value: number | null) => (value === null ? '—' : `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : Math.round(value)} ms`);

/** The range's totals: requests, error rate, p50, p95, p99. */
export function LogsTotals({ totals }: { totals: LogStats['totals'] }) {
  const rate = totals.count === 0 ? '—' : `${((totals.errors / totals.count) * 100).toFixed(totals.errors === 0 ? 0 : 1)} %`;
  const items: Array<[string, string]> = [
    ['Requests', totals.count.toLocaleString('en')],
    ['Error rate', rate],
    ['p50', ms(totals.p50_ms)],
    ['p95', ms(totals.p95_ms)],
    ['p99', ms(totals.p99_ms)],
  ];
  return (
    <section className="log-totals" aria-label="Totals">
      <dl>
        {items.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
