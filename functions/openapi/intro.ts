import { networkTitles } from './network-words.ts';

/** The document's introduction (info.description): what every integrator must know before the first call. */
export const INTRO = `Cambio is a REST API for companies: USDT deposits and withdrawals on ${networkTitles('and')}
(each where the stage opens it), USDT → BRL conversions, signed webhooks and the company's balances.

## Authentication
Every request carries **both** \`X-Api-Key\` and \`X-Api-Secret\`. Missing or wrong → 401 \`AUTH_FAILED\`.
A restricted key (made read-only, or allowed only from some addresses, on the dashboard) is refused with 403
\`FORBIDDEN\` when it writes, or when it is used from another address.

## Envelope
Every answer, errors included, is \`{"success":true,"data":…}\` or
\`{"success":false,"error":{"code","message","details"}}\`, with an \`X-Request-Id\` header. Match on \`code\`, never on
\`message\`.
In production a firewall (AWS WAF) answers before the API: a request that looks like an attack gets 403 \`FORBIDDEN\`,
in the same envelope.

## Money
Amounts are decimal strings, never JSON numbers: USDT has 6 decimals, BRL 2. More decimals, zero, a sign or exponent
notation → 400 \`VALIDATION_FAILED\`. Answers always carry the currency's full scale (\`"10.500000"\`, \`"54.00"\`).

## Idempotency
Send an \`Idempotency-Key\` (a UUID) with every POST and reuse it when you retry: the retry replays the first answer
(header \`Idempotent-Replayed: true\`) instead of doing the work twice. Kept 24 h.

## Pagination
List routes take \`limit\` (1–100, default 20) and \`cursor\`, newest first. The envelope adds
\`"pagination":{"nextCursor":…}\`: pass it as \`cursor\` until it is null.

## Ids
Prefixed ULIDs: \`cmp_\`, \`dep_\`, \`wdr_\`, \`qte_\`, \`cnv_\`, \`whk_\`, \`evt_\`. An unknown, malformed or another
company's id → 404 \`NOT_FOUND\`.

## Signed events
Events are POSTed to your webhooks signed as [Standard Webhooks](https://www.standardwebhooks.com/) says (headers
\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`); see the Events section.`;
