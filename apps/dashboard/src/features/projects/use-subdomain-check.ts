import { useSubdomainAvailability } from '../../api/projects';
import { useDebounced } from '../../ui/use-debounced';

export interface SubdomainCheck {
  /** Why the name cannot be used (shown at the field), or null. */
  error: string | null;
  /** "Checking…" / "Available" while there is no error. */
  status: string | null;
  /** True while the form must not be sent: empty, unchecked, or refused. */
  blocking: boolean;
  /** True while the answer for the current name is still awaited (a form may queue its submit). */
  checking: boolean;
}

/** Asks `GET /v1/subdomains/:name` 300 ms after the user stops typing; `current` (the project's own name) needs no check. */
export function useSubdomainCheck(value: string, current?: string): SubdomainCheck {
  const name = value.trim().toLowerCase();
  const debounced = useDebounced(name, 300);
  const unchanged = current !== undefined && name === current;
  const availability = useSubdomainAvailability(unchanged ? '' : debounced);
  if (!name) return { error: null, status: null, blocking: true, checking: false };
  if (unchanged) return { error: null, status: null, blocking: false, checking: false };
  if (debounced !== name || availability.isPending) return { error: null, status: 'Checking…', blocking: true, checking: true };
  if (availability.error) return { error: null, status: 'Could not check the name; the server will when you save.', blocking: false, checking: false };
  const answer = availability.data!;
  if (!answer.available) return { error: answer.message ?? 'This subdomain cannot be used', status: null, blocking: true, checking: false };
  return { error: null, status: 'Available', blocking: false, checking: false };
}
