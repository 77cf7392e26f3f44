// Errors as log fields: never a stack, and never the RPC endpoint URL viem appends to its messages, whose path
// carries the provider's API key (…/v3/<key>).
import { HttpRequestError, SocketClosedError } from 'viem';
import { describe, expect, test } from 'vitest';
import { errorFields } from '../../observability/logger';

describe('errorFields', () => {
  test.each([
    ['an HTTP RPC failure', new HttpRequestError({ url: 'https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef', status: 503 })],
    ['a closed websocket', new SocketClosedError({ url: 'wss://eth-mainnet.g.alchemy.com/v2/0123456789abcdef0123456789abcdef' })],
  ])('%s is logged without its URL', (_what, error) => {
    expect(error.message).toContain('0123456789abcdef0123456789abcdef');
    const fields = errorFields(error);
    expect(JSON.stringify(fields)).not.toContain('0123456789abcdef');
    expect(fields.message).toBe(error.shortMessage);
  });

  test('other errors keep their message, and no stack', () => {
    const fields = errorFields(new TypeError('fetch failed'));
    expect(fields).toEqual({ name: 'TypeError', message: 'fetch failed' });
  });
});
