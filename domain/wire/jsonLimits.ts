// What a JSON request body may look like before any handler sees it. Deeply nested input would overflow the
// stack of every recursive walk after it (canonical hashing for Idempotency-Key), and text Postgres cannot
// store (NUL) or that is not Unicode (an unpaired surrogate from a `\ud800` escape) would fail deep in a
// query: both must be a 400 at the door.

export const JSON_LIMITS = { maxDepth: 16, maxEntries: 1_000 } as const;

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const notStorable = (text: string) => text.includes('\u0000') || UNPAIRED_SURROGATE.test(text);

/** Why a parsed body is refused, if it is; walks it without recursion, so no input can overflow the stack. */
export function jsonBodyProblem(value: unknown, limits: { maxDepth: number; maxEntries: number } = JSON_LIMITS): string | undefined {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  let entries = 0;
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (typeof current === 'string') {
      if (notStorable(current)) return 'Request body contains a NUL character or an unpaired UTF-16 surrogate';
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= limits.maxDepth) return `Request body is nested deeper than ${limits.maxDepth} levels`;
    const children = Array.isArray(current) ? current : Object.entries(current).flat();
    entries += Array.isArray(current) ? current.length : children.length / 2;
    if (entries > limits.maxEntries) return `Request body has more than ${limits.maxEntries} keys and array elements`;
    for (const child of children) pending.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}
