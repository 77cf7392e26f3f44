// What the service's loggers hide: credentials by header and field name, and nothing an operator needs, such as
// the token symbol every sweep, transfer and quote line carries.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { REDACTED_LOG_FIELDS } from '../../observability/logger';

function logged(fields: Record<string, unknown>): Record<string, unknown> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  pino({ redact: { paths: REDACTED_LOG_FIELDS, censor: '[redacted]' } }, sink).info(fields, 'line');
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe('log redaction', () => {
  it('hides credentials in headers, the session token in the query, and credential fields', () => {
    const line = logged({
      req: { headers: { 'x-api-key': 'mk_test_abc', authorization: 'Bearer cs_1.sig' }, query: { token: 'cs_1.sig' } },
      apiKey: 'mk_live_abc',
      sessionToken: 'cs_1.sig',
      secret: 'whsec_abc',
      password: 'hunter2',
      databaseUrl: 'postgres://u:p@h/db',
    });
    expect(line).toMatchObject({
      req: { headers: { 'x-api-key': '[redacted]', authorization: '[redacted]' }, query: { token: '[redacted]' } },
      apiKey: '[redacted]',
      sessionToken: '[redacted]',
      secret: '[redacted]',
      password: '[redacted]',
      databaseUrl: '[redacted]',
    });
    expect(JSON.stringify(line)).not.toMatch(/mk_|cs_1|whsec|hunter2|postgres:/);
  });

  it('keeps the token symbol a sweep or quote line names', () => {
    expect(logged({ chain: 'base', token: 'USDC', mode: 'test' })).toMatchObject({ chain: 'base', token: 'USDC', mode: 'test' });
  });
});
