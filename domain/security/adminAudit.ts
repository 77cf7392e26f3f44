// The admin CLI's audit trail: who ran a state-changing command, and what of its
// arguments may be kept. Secrets are known by the option's declared kind, never guessed from a value: a
// guess misses the secret that does not look like one.

/** How a command ended: `refused` is the operator's error (bad input, a rule), `failed` anything else. */
export type AdminAuditOutcome = 'ok' | 'refused' | 'failed';

/** Where the operator's name came from; an `os` name only says which login ran the command. */
export type OperatorSource = 'option' | 'env' | 'os';

export interface Operator {
  name: string;
  source: OperatorSource;
}

export const OPERATOR_NAME_MAX = 100;

/** Stored in place of a secret's value, so the row still shows that the option was given. */
export const REDACTED = '[redacted]';

/**
 * `--operator` wins over `CHECKOUT_OPERATOR`, which wins over the login name; blank counts as not given.
 * A name that cannot be stored comes back as a problem, with the login name to record the refusal under.
 */
export function resolveOperator(
  option: string | undefined,
  env: string | undefined,
  loginName: () => string | undefined,
): { operator: Operator; problem?: string } {
  for (const [value, source] of [
    [option, 'option'],
    [env, 'env'],
  ] as const) {
    const name = value?.trim();
    if (!name) continue;
    if (name.length <= OPERATOR_NAME_MAX && !/\p{Cc}/u.test(name)) return { operator: { name, source } };
    return {
      operator: fromLogin(loginName),
      problem: `${source === 'option' ? '--operator' : 'CHECKOUT_OPERATOR'}: Must be 1 to ${OPERATOR_NAME_MAX} characters without control characters`,
    };
  }
  return { operator: fromLogin(loginName) };
}

const fromLogin = (loginName: () => string | undefined): Operator => ({ name: loginName()?.trim() || 'unknown', source: 'os' });

/** The arguments as given, each secret replaced by REDACTED. */
export function redactArguments(
  values: Record<string, string | boolean | undefined>,
  isSecret: (option: string) => boolean,
): Record<string, string | boolean> {
  const kept: Record<string, string | boolean> = {};
  for (const [option, value] of Object.entries(values)) {
    if (value === undefined) continue;
    kept[option] = isSecret(option) ? REDACTED : value;
  }
  return kept;
}
