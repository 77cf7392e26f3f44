// Every `:session_id` in a route path matches `cs_` + ULID and nothing else, so /checkout/sessions/current
// can never be taken for a session id (nor /checkout/tokens for a hosted page), whatever the order the
// routes were registered in; every `:refund_id` likewise only `ref_` + ULID. path-to-regexp 8 dropped inline parameter patterns (`:id(regex)`), so the
// compiled matcher of each such route is narrowed once every route is registered.
import type Router from '@koa/router';
import type { AppState } from '../context';
import { REFUND_ID_PATTERN, SESSION_ID_SOURCE } from '../../domain/wire/ids';

const CONSTRAINED: Record<string, string> = {
  session_id: SESSION_ID_SOURCE,
  refund_id: REFUND_ID_PATTERN.source.slice(1, -1),
};
/** What path-to-regexp 8 compiles every `:name` segment to. */
const PARAM_GROUP = '([^\\/]+)';

/** Narrows `:session_id` and `:refund_id` alike; named for the first, which every caller already knows it by. */
export function constrainSessionIdParams(router: Router<AppState>): void {
  for (const layer of router.stack) {
    const names = layer.paramNames.map((key) => key.name);
    if (!names.some((name) => name in CONSTRAINED)) continue;
    let index = 0;
    const source = layer.regexp.source.replaceAll(PARAM_GROUP, (group) => {
      const pattern = CONSTRAINED[names[index++] ?? ''];
      return pattern ? `(${pattern})` : group;
    });
    // A path-to-regexp that compiles parameters differently must fail loudly here, not route loosely.
    if (index !== names.length)
      throw new Error(`cannot constrain :${names.join(', :')} in ${String(layer.path)}: unexpected pattern ${layer.regexp.source}`);
    layer.regexp = new RegExp(source, layer.regexp.flags);
  }
}
