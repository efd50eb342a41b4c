import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';

/**
 * Lambda's response streaming for the local server: the `awslambda` global that Lambda's Node
 * runtime provides (`streamifyResponse`, `HttpResponseStream.from`), so a streaming handler
 * (functions/http/dashboard-download.ts, through Middy's streaming mode) runs here unchanged, and
 * a response stream that writes to the HTTP answer as API Gateway's STREAM mode does: the status
 * and headers when the first byte (or the end) comes, each write sent at once with backpressure,
 * and a connection cut off if the handler fails after the head went out.
 */

/** The mark the runtime's `streamifyResponse` puts on a handler (aws-lambda-nodejs-runtime-interface-client). */
const HANDLER_STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');

interface Prelude {
  statusCode?: number;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
}

export type StreamingHandler = (event: unknown, responseStream: Writable, context: unknown) => Promise<unknown>;

export function isStreamingHandler(handler: unknown): handler is StreamingHandler {
  return typeof handler === 'function' && (handler as unknown as Record<symbol, unknown>)[HANDLER_STREAMING] === 'response';
}

/** The response stream given to a streaming handler: it answers `response`. */
export class LocalResponseStream extends Writable {
  private prelude: Prelude = {};

  constructor(private readonly response: ServerResponse) {
    super();
    // The browser went away: fail the handler's pipeline so it stops reading the table.
    response.on('close', () => {
      if (!response.writableFinished) this.destroy(Object.assign(new Error('The client closed the connection'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  }

  /** HttpResponseStream.from: the status and headers to send before the body. */
  setPrelude(prelude: Prelude): void {
    this.prelude = prelude;
  }

  get headSent(): boolean {
    return this.response.headersSent;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.sendHead();
    if (this.response.write(chunk)) done();
    else this.response.once('drain', () => done());
  }

  override _final(done: (error?: Error | null) => void): void {
    this.sendHead();
    this.response.end(() => done());
  }

  private sendHead(): void {
    if (this.response.headersSent) return;
    this.response.writeHead(this.prelude.statusCode ?? 200, { ...this.prelude.headers, ...this.prelude.multiValueHeaders });
  }
}

/** Installs the runtime's `awslambda.streamifyResponse` and `HttpResponseStream` unless a real
 * runtime has. Before any handler loads. The object may exist already: the AWS SDK's invoke store
 * (@aws/lambda-invoke-store) makes an empty one to hang its own state on. */
export function installLambdaStreaming(): void {
  const global = globalThis as { awslambda?: Record<string, unknown> };
  const awslambda = (global.awslambda ??= {});
  awslambda.streamifyResponse ??= (handler: StreamingHandler) => Object.assign(handler, { [HANDLER_STREAMING]: 'response' });
  awslambda.HttpResponseStream ??= {
    from: (stream: Writable, prelude: Prelude) => {
      if (!(stream instanceof LocalResponseStream)) throw new Error('HttpResponseStream.from needs the local response stream');
      stream.setPrelude(prelude);
      return stream;
    },
  };
}
