import { useEffect, useEffectEvent, useState } from 'react';
import { useDebounced } from '../../ui/use-debounced';
import { CACHE_OUTCOMES, ENVIRONMENTS, type LogFilters, METHODS, RANGES, type RangeKey, STATUS_OPTIONS, TRIGGERS } from './log-filters';

/** Endpoint, Status, Method, Time range, Environment, Trigger, Cache; every change lands in the URL (the path after typing stops). */
export function LogsFiltersForm({ filters, onChange }: { filters: LogFilters; onChange: (next: LogFilters) => void }) {
  const [endpoint, setEndpoint] = useState(filters.endpoint);
  const settled = useDebounced(endpoint, 400);
  // Only a settled edit of the textbox is a change; `filters` changing alone is not.
  const settle = useEffectEvent((typed: string) => {
    if (typed.trim() !== filters.endpoint) onChange({ ...filters, endpoint: typed.trim() });
  });
  useEffect(() => settle(settled), [settled]);
  useEffect(() => setEndpoint(filters.endpoint), [filters.endpoint]);

  return (
    <form className="log-filters" role="search" aria-label="Filter logs" onSubmit={(event) => {
      event.preventDefault();
      onChange({ ...filters, endpoint: endpoint.trim() });
    }}>
      <label className="field">
        <span>Endpoint</span>
        <input type="text" value={endpoint} placeholder="/orders" onChange={(event) => setEndpoint(event.target.value)} />
      </label>
      <label className="field">
        <span>Status</span>
        <select value={filters.status} onChange={(event) => onChange({ ...filters, status: event.target.value })}>
          {STATUS_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Method</span>
        <select value={filters.method} onChange={(event) => onChange({ ...filters, method: event.target.value })}>
          <option value="">Any</option>
          {METHODS.map((method) => (
            <option key={method} value={method}>
              {method}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Time range</span>
        <select value={filters.range} onChange={(event) => onChange({ ...filters, range: event.target.value as RangeKey })}>
          {Object.entries(RANGES).map(([key, range]) => (
            <option key={key} value={key}>
              {range.label}
            </option>
          ))}
        </select>
      </label>
      <ChoiceFilter label="Environment" choices={ENVIRONMENTS} value={filters.environment} onChange={(environment) => onChange({ ...filters, environment })} />
      <ChoiceFilter label="Trigger" choices={TRIGGERS} value={filters.trigger} onChange={(trigger) => onChange({ ...filters, trigger })} />
      <ChoiceFilter label="Cache" choices={CACHE_OUTCOMES} value={filters.cache} onChange={(cache) => onChange({ ...filters, cache })} />
    </form>
  );
}

/** A combobox named `label` over a fixed set of choices (value → label), in their order. */
function ChoiceFilter<K extends string>({ label, choices, value, onChange }: { label: string; choices: Readonly<Record<K, string>>; value: K; onChange: (next: K) => void }) {
  return (
    <label className="field">
      <span>{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value as K)}>
        {(Object.entries(choices) as Array<[K, string]>).map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
