/** `Get order by id` → `getOrderById`; words are runs of letters and digits. */
export function operationIdFrom(name: string, fallback: string): string {
  const words = name.match(/[A-Za-z0-9]+/g) ?? fallback.match(/[A-Za-z0-9]+/g) ?? ['operation'];
  const id = words.map((word, index) => (index === 0 ? word.charAt(0).toLowerCase() : word.charAt(0).toUpperCase()) + word.slice(1)).join('');
  return /^[0-9]/.test(id) ? `op${id.charAt(0).toUpperCase()}${id.slice(1)}` : id;
}

/** Hands out operation ids unique within one document: `listOrders`, `listOrders2`, … */
export class OperationIds {
  private readonly taken = new Set<string>();

  take(name: string, fallback: string): string {
    const base = operationIdFrom(name, fallback);
    let id = base;
    for (let n = 2; this.taken.has(id); n++) id = `${base}${n}`;
    this.taken.add(id);
    return id;
  }
}
