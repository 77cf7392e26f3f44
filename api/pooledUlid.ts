import { randomFillSync } from 'node:crypto';
import { ulid } from 'ulid';

// ulid's own randomness makes a crypto call per character, 16 per id: 7 % of the API's CPU time under a
// get-session load for request ids alone, 3 % under create-session for a session's two ids. One call
// fills the pool for 256 ids. Not in domain/wire/ids.ts: workflow code imports that, and may not import node:crypto.
const pool = new Uint8Array(4096);
let pooled = pool.length;
function pooledRandom(): number {
  if (pooled === pool.length) {
    randomFillSync(pool);
    pooled = 0;
  }
  return pool[pooled++]! / 256;
}

/** A ULID whose randomness comes from the pool. */
export const pooledUlid = () => ulid(undefined, pooledRandom);
