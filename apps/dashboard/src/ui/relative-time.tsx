const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const exact = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });

/** "3 minutes ago" for a time `iso`, relative to `now`. */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') {
      if (unit === 'second' && Math.abs(seconds) < 10) return 'just now';
      return relative.format(Math.round(seconds / size), unit);
    }
  }
  return relative.format(seconds, 'second');
}

/** A relative time with the exact time on hover (and for assistive technology, via <time>). */
export function RelativeTime({ iso, fallback = 'Never' }: { iso: string | null; fallback?: string }) {
  if (!iso) return <span>{fallback}</span>;
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={exact.format(date)}>
      {relativeTime(iso)}
    </time>
  );
}
