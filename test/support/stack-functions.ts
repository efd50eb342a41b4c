/**
 * aws-s3-deployment's BucketDeployment (lib/dashboard.ts, appUpload) adds a function of CDK's own,
 * which copies the built dashboard app into its bucket while `cdk deploy` runs. It is not one of
 * Cambio's: no handler of ours, no settings slice, no tracing and no alarms (when it fails, the
 * deploy fails and rolls back in front of whoever ran it). The infra tests that speak of "every
 * function" mean Cambio's, and test/infra/stack.test.ts says what this one may do.
 */
export function isAppUploadFunction(logicalId: string): boolean {
  return logicalId.startsWith('CustomCDKBucketDeployment');
}

/** A template's functions (`findResources('AWS::Lambda::Function')`) without CDK's app upload. */
export function cambioFunctions<T>(functions: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(functions).filter(([id]) => !isAppUploadFunction(id)));
}
