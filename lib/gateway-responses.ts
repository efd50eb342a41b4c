import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { errorEnvelope } from '../functions/http/envelope.ts';
import type { GatewayResponseSpec } from '../functions/http/gateway-responses.ts';

/**
 * What API Gateway answers by itself also wears the contract's envelope (api-contract.md,
 * Conventions), on the /v1 API and the dashboard's alike. The templates are plain JSON: nothing in
 * them is VTL. `idOf` keeps each API's logical ids as they were first deployed: a GatewayResponse
 * replaced under a new id would be written by the new resource, then reset by the old one's delete.
 */
export function answerInTheEnvelope(api: RestApi, specs: readonly GatewayResponseSpec[], idOf: (spec: GatewayResponseSpec) => string): void {
  for (const spec of specs) {
    api.addGatewayResponse(idOf(spec), {
      type: ResponseType.of(spec.type),
      statusCode: spec.status === undefined ? undefined : String(spec.status),
      // Header values are mapping expressions: a literal is quoted.
      responseHeaders: { 'Content-Type': "'application/json'", ...Object.fromEntries(Object.entries(spec.headers ?? {}).map(([name, value]) => [name, `'${value}'`])) },
      templates: { 'application/json': errorEnvelope(spec.code, spec.message) },
    });
  }
}
