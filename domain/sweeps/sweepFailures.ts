// Failure isolation for forwarder sweeps (docs/settlement.md#evm-forwarder-sweeps): one address whose token transfer
// reverts (a token that blacklists it) would revert its whole sweepMany on every run, so a plan simulates each batch
// and leaves the failing addresses out, found by bisection: k failing addresses among n cost about 2k·log2(n) calls.

/** Failed simulations after which an address is no longer planned until an operator clears it, unless configured. */
export const DEFAULT_SWEEP_MAX_ADDRESS_FAILURES = 3;

/** What a simulation of a sweep of these addresses answers: undefined when it would succeed, else why it reverts. */
export type SweepSimulation<C> = (addresses: readonly C[]) => Promise<string | undefined>;

/** The sweep call reverts with no address in it (the relayer is no longer the factory's sweeper): no address's fault. */
export class SweepCallRevertsError extends Error {
  override name = 'SweepCallRevertsError';
}

/**
 * The addresses of `addresses` whose sweep reverts, each with its revert reason: none when the whole batch
 * simulates, otherwise the halves are simulated in turn down to single addresses. Throws when a sweep of no address
 * reverts too, lest every address be counted for what is the call's fault. An address fails only when it reverts
 * alone, so a revert that needs two addresses together (none the factory knows of) leaves both in.
 */
export async function failingAddresses<C>(addresses: readonly C[], simulate: SweepSimulation<C>): Promise<Map<C, string>> {
  const failing = new Map<C, string>();
  if (addresses.length === 0) return failing;
  const whole = await simulate(addresses);
  if (whole === undefined) return failing;
  const empty = await simulate([]);
  if (empty !== undefined) throw new SweepCallRevertsError(`a sweep of no address reverts too: ${empty}`);
  const search = async (part: readonly C[], knownReason?: string): Promise<void> => {
    const reason = knownReason ?? (await simulate(part));
    if (reason === undefined) return;
    if (part.length === 1) {
      failing.set(part[0] as C, reason);
      return;
    }
    const middle = Math.ceil(part.length / 2);
    await search(part.slice(0, middle));
    await search(part.slice(middle));
  };
  await search(addresses, whole);
  return failing;
}
