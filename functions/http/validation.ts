import * as v from 'valibot';
import { validationFailed, type FieldError } from '#functions/shared/errors';

/** Validates with valibot and, on failure, throws VALIDATION_FAILED whose `details` names every
 * failing path (the contract's `{path, message}` list); `(root)` when the body itself is wrong. */
export function validate<TSchema extends v.GenericSchema>(schema: TSchema, input: unknown): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (result.success) return result.output;
  throw validationFailed(toFieldErrors(result.issues));
}

export function toFieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldError[] {
  const seen = new Set<string>();
  const details: FieldError[] = [];
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? '(root)';
    const message = describe(issue);
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ path, message });
  }
  return details;
}

function describe(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === 'schema' && issue.type === 'strict_object' && issue.expected === 'never') return 'is not a known field';
  if (issue.kind === 'schema' && issue.received === 'undefined') return 'is required';
  return issue.message;
}
