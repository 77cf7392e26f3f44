// Every `:session_id` in a route path matches `cs_` + ULID and nothing else, so /checkout/sessions/current
// can never be taken for a session id (nor /checkout/tokens for a hosted page), whatever the order the
// routes were registered in. path-to-regexp 8 dropped inline parameter patterns (`:id(regex)`), so the
// compiled matcher of each such route is narrowed once every route is registered.
import type Router from '@koa/router';
import type { AppState } from '../context';
import { SESSION_ID_SOURCE } from '../../domain/wire/ids';

const PARAM = 'session_id';
/** What path-to-regexp 8 compiles every `:name` segment to. */
const PARAM_GROUP = '([^\\/]+)';

export function constrainSessionIdParams(router: Router<AppState>): void {
  for (const layer of router.stack) {
    const names = layer.paramNames.map((key) => key.name);
    if (!names.includes(PARAM)) continue;
    let index = 0;
    const source = layer.regexp.source.replaceAll(PARAM_GROUP, (group) => (names[index++] === PARAM ? `(${SESSION_ID_SOURCE})` : group));
    // A path-to-regexp that compiles parameters differently must fail loudly here, not route loosely.
    if (index !== names.length)
      throw new Error(`cannot constrain :${PARAM} in ${String(layer.path)}: unexpected pattern ${layer.regexp.source}`);
    layer.regexp = new RegExp(source, layer.regexp.flags);
  }
}
