/** A JSON-RPC error answer with a node's code (and its `data`, as preflight failures carry logs). */
export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
