/**
 * Every AWS SDK client Cambio makes passes through `awsClient`, so that the functions that trace
 * (the jobs and the webhook sender, which load #adapters/tracing through #adapters/observability)
 * record each call as an X-Ray subsegment, while the API handlers and the authorizer never bundle
 * the tracer (~290 KB with its source map, against their 300 KB budget: test/infra/bundles.test.ts)
 * and get their clients as they are. The tracer installs itself here when its module loads, which ESM does before
 * the body of any handler that imports it, so before the clients its cold start creates.
 */
type Instrument = <Client extends object>(client: Client) => Client;

let instrument: Instrument = (client) => client;

export function awsClient<Client extends object>(client: Client): Client {
  return instrument(client);
}

export function instrumentAwsClients(wrap: Instrument): void {
  instrument = wrap;
}
