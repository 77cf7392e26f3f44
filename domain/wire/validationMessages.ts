// The contract quotes validation messages in zod 3's phrasing ("amount_usd: Number must be greater than 0").
// Zod 4 words them differently, so this error map restores that phrasing for the issues our schemas raise.
import { z } from 'zod';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isNaN(value)) return 'nan';
  return typeof value;
}

const nouns = { string: ['String', 'character(s)'], array: ['Array', 'element(s)'], set: ['Set', 'element(s)'] } as const;

function bound(kind: 'small' | 'big', origin: string, limit: unknown, inclusive: boolean | undefined): string | undefined {
  if (origin === 'number' || origin === 'bigint') {
    const relation = kind === 'small' ? 'greater than' : 'less than';
    return `Number must be ${relation}${inclusive ? ' or equal to' : ''} ${String(limit)}`;
  }
  const noun = nouns[origin as keyof typeof nouns];
  if (!noun) return undefined;
  return `${noun[0]} must contain ${kind === 'small' ? 'at least' : 'at most'} ${String(limit)} ${noun[1]}`;
}

z.config({
  customError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        return issue.input === undefined ? 'Required' : `Expected ${issue.expected}, received ${describe(issue.input)}`;
      case 'too_small':
        return bound('small', issue.origin, issue.minimum, issue.inclusive);
      case 'too_big':
        return bound('big', issue.origin, issue.maximum, issue.inclusive);
      case 'invalid_value':
        // Zod 4 reports a missing enum field as an invalid value; zod 3 (and the contract) call it Required.
        if (issue.input === undefined) return 'Required';
        return `Invalid enum value. Expected ${issue.values.map((v) => `'${String(v)}'`).join(' | ')}, received '${String(issue.input)}'`;
      case 'invalid_format':
        return issue.format === 'url' ? 'Invalid url' : undefined;
      default:
        return undefined;
    }
  },
});

/** Flattens zod issues into the contract's `"<field>: <message>"` strings, one per unknown key too. */
export function validationErrors(error: z.ZodError, root = 'body'): string[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => `${path ? `${path}.` : ''}${key}: Unrecognized field`);
    }
    return [`${path || root}: ${issue.message}`];
  });
}

export { z };
