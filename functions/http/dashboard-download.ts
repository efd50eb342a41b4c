import { Readable } from 'node:stream';
import middy from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Caller } from '#functions/people/caller';
import type { Permission } from '#functions/people/team';
import { logRequest } from './access-log.ts';
import { callerOf, NO_STORE, type MembershipLookup } from './dashboard-route.ts';
import { JSON_HEADERS } from './envelope.ts';
import { errorCodeOf, toErrorResponse, unexpectedErrors } from './route.ts';

/** A file made piece by piece while it is sent. */
export interface Download {
  /** What the browser saves it as. */
  filename: string;
  contentType: string;
  pieces: AsyncIterable<string>;
}

export interface DownloadRequest {
  caller: Caller;
  pathParameters: Record<string, string>;
  query: Record<string, string>;
}

/** What the handler gives Middy in streaming mode: the status and headers, then the body as a stream. */
interface StreamedResult {
  statusCode: number;
  headers: Record<string, string>;
  body: Readable | string;
}

/**
 * A dashboard route whose answer is a file sent while it is made (`Export CSV`), so no file is
 * held whole: not in the Lambda, not in the page, which lets the browser save it as it arrives.
 * In AWS it is a Lambda response stream behind API Gateway's STREAM transfer mode
 * (lib/dashboard.ts); locally the server speaks the same `awslambda.streamifyResponse` protocol
 * (local/lambda-response-stream.ts). Middy's streaming mode pipes the body out.
 *
 * The same checks as dashboardRoute: the session authorizer's person, the membership and role of
 * the path's company. GET only, so no CSRF token: it changes nothing, and SameSite=Strict keeps
 * the session cookie off other sites' requests. A refusal, or a failure before the first piece,
 * answers in the envelope with its status; a failure after the first piece can only cut the
 * stream off (logged with its cause), which the browser shows as a failed download, never as a
 * shorter file that looks complete.
 */
export function dashboardDownload(
  options: { access: Permission; memberships: MembershipLookup },
  fn: (request: DownloadRequest) => Promise<Download>,
): unknown {
  return middy<APIGatewayProxyEvent, StreamedResult>({ streamifyResponse: true }).handler(async (event) => {
    const started = performance.now();
    const requestId = event.requestContext.requestId;
    const log = (status: number, code: string | null, error?: unknown) =>
      logRequest({
        requestId,
        route: `${event.httpMethod} ${event.resource}`,
        status,
        code,
        latencyMs: Math.round(performance.now() - started),
        companyId: event.pathParameters?.companyId ?? null,
        replayed: false,
        error,
      });
    try {
      const caller = await callerOf(event, options.access, options.memberships);
      const download = await fn({
        caller,
        pathParameters: (event.pathParameters ?? {}) as Record<string, string>,
        query: (event.queryStringParameters ?? {}) as Record<string, string>,
      });
      const pieces = download.pieces[Symbol.asyncIterator]();
      const first = await pieces.next();
      return {
        statusCode: 200,
        headers: {
          'Content-Type': download.contentType,
          'Content-Disposition': `attachment; filename="${download.filename}"`,
          ...NO_STORE,
          'X-Request-Id': requestId,
        },
        body: Readable.from(sendThenLog(first, pieces, log)),
      };
    } catch (error) {
      const { statusCode, body } = toErrorResponse(error, event);
      log(statusCode, errorCodeOf(body), unexpectedErrors.get(event));
      return { statusCode, headers: { ...JSON_HEADERS, ...NO_STORE, 'X-Request-Id': requestId }, body };
    }
  });
}

/** The pieces after the first, and the request's one log line once the last is out or the send broke off. */
async function* sendThenLog(
  first: IteratorResult<string>,
  rest: AsyncIterator<string>,
  log: (status: number, code: string | null, error?: unknown) => void,
): AsyncGenerator<string> {
  // The generator is closed early (finally without catch) when the client goes away.
  let failure: unknown = null;
  let finished = false;
  try {
    if (!first.done) yield first.value;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
    finished = true;
  } catch (error) {
    // Node's code for a stream closed before its end: here, the client went away.
    if ((error as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') failure = error;
    throw error;
  } finally {
    // The 200 went out with the head; a stream cut off by a failure is logged as the 500 it is.
    if (failure !== null) log(500, 'INTERNAL_ERROR', failure);
    else log(200, null, finished ? undefined : 'the client closed the connection before the end');
    if (!finished) await rest.return?.();
  }
}
