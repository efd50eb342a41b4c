import './xray-mode.ts';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE } from '#http/access-log';
import { instrumentAwsClients } from './aws-clients.ts';

/**
 * X-Ray tracing for the jobs and the webhook sender (Powertools Tracer), loaded by
 * #adapters/observability. Lambda's active tracing (lib/api-function.ts) opens each invocation's
 * segment; this adds a subsegment per job run (runJob), one per AWS SDK call (every client goes
 * through #adapters/aws-clients) and, unless POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS=false (the
 * webhook sender: an integrator's URL may carry a token), one per outgoing HTTP request (TronGrid).
 * The API handlers and the authorizer leave this module out for bundle size and keep active
 * tracing alone (functions/http/access-log.ts, functions/handlers/auth/authorizer.ts).
 *
 * Off outside Lambda (Powertools' default: no AWS_EXECUTION_ENV), so the local runtime and the tests
 * never look for an X-Ray daemon. Responses are not recorded: a job's outcome is in its log line,
 * and a trace then holds timings, annotations and errors only.
 */
export const tracer = new Tracer({ serviceName: SERVICE });

instrumentAwsClients((client) => tracer.captureAWSv3Client(client));

/**
 * Runs `run` in a subsegment `## <name>`, annotated with ColdStart and Service and marked with the
 * error it throws: what Powertools' captureLambdaHandler does for a handler, here for a job run
 * (#adapters/observability runJob), so each job's trace shows its name.
 */
export function traced<T>(name: string, run: () => Promise<T>): Promise<T> {
  if (!tracer.isTracingEnabled()) return run();
  return tracer.provider.captureAsyncFunc(`## ${name}`, async (subsegment) => {
    tracer.annotateColdStart();
    tracer.addServiceNameAnnotation();
    try {
      return await run();
    } catch (error) {
      tracer.addErrorAsMetadata(error as Error);
      throw error;
    } finally {
      subsegment?.close();
    }
  }) as Promise<T>;
}
