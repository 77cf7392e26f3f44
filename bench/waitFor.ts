// Polls a probe until it yields a value: how the end-to-end benchmarks see the service reach a step.
const STEP_TIMEOUT_MS = 60_000;
const PROBE_INTERVAL_MS = 10;

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = STEP_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
  }
}
