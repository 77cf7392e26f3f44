// What the workflow bundle holds: every new session workflow (and every replay after an eviction) evaluates its
// modules afresh, so a heavy library there costs each of them, on the worker's workflow thread.
import { describe, expect, inject, it } from 'vitest';

describe('the workflow bundle', () => {
  it('holds no zod: its schemas and locales took a quarter of the workflow thread under select-payment load', () => {
    expect(inject('workflowBundleCode')).not.toMatch(/node_modules\/zod\//);
  });
});
