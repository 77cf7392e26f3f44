// The error body of docs/api.md#refusals, as a schema for the OpenAPI document and the tests.
import { z } from './validationMessages';

export const ErrorBody = z
  .object({
    error: z.string(),
    details: z
      .object({
        validation_errors: z.array(z.string()).optional().meta({ description: 'Each entry is "<field>: <message>".' }),
        checks: z.record(z.string(), z.string()).optional().meta({ description: 'Only on /readyz: each dependency, `ok` or what failed.' }),
      })
      .strict()
      .optional(),
    request_id: z.string().optional().meta({ description: 'Only on 500s, to quote to support.' }),
  })
  .strict();
export type ErrorBody = z.infer<typeof ErrorBody>;
