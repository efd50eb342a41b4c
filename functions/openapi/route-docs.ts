import type * as v from 'valibot';
import type { ErrorCode } from '#functions/shared/errors';
import { LIST_LIMIT } from '#functions/shared/pagination';
import type { HttpMethod } from '../routes.ts';
import { balanceRecord, companyRecord } from '../handlers/company/records.ts';
import { createConversionBody, createQuoteBody, listConversionsQuery } from '../handlers/conversions/schemas.ts';
import { conversionRecord, quoteRecord } from '../handlers/conversions/records.ts';
import { createDepositBody } from '../handlers/deposits/schemas.ts';
import { depositRecord } from '../handlers/deposits/records.ts';
import { listWebhooksQuery, webhookBody } from '../handlers/webhooks/schemas.ts';
import { createdWebhookRecord, deletedWebhookRecord, webhookRecord } from '../handlers/webhooks/records.ts';
import { createWithdrawalBody } from '../handlers/withdrawals/schemas.ts';
import { withdrawalRecord } from '../handlers/withdrawals/records.ts';
import { EVM_NETWORK_NAMES } from '../networks/names.ts';
import { networkCodes, networkTitles } from './network-words.ts';

/**
 * What the OpenAPI document says about each entry of the route table (functions/routes.ts): the
 * schemas the handler validates with, the record it answers, and the error codes only this route
 * produces. The codes every route shares (auth, throttling, body and Idempotency-Key rules, 404 on
 * an unknown id) are added by the document builder from the route's shape. A test fails when a
 * route has no entry here, or an entry no route.
 */
/** The document's groups of operations, in the reference's order, each with its description. */
export const TAGS = {
  Company: 'The company behind the API key, and its balances',
  Deposits: `USDT on ${networkTitles('or')}, to a fresh address per deposit`,
  Withdrawals: `USDT on ${networkTitles('or')}, to any address on that network`,
  Conversions: 'USDT → BRL: a quote valid 30 s, then its execution',
  Webhooks: 'Where events are delivered',
  Events: 'What Cambio POSTs to your webhooks, signed as Standard Webhooks says',
} as const;

export interface RouteDoc {
  operationId: string;
  tag: Exclude<keyof typeof TAGS, 'Events'>;
  summary: string;
  description?: string;
  /** The schema the handler validates its body with (components name, schema), and an example
   * body (the contract test checks it against the schema and sends it). */
  body?: { name: string; schema: v.GenericSchema; example: Record<string, unknown> };
  /** The schema the handler validates its query with, and the default page size. */
  query?: { schema: v.GenericSchema; defaultLimit: number };
  success: { status: 200 | 201; record: { name: string; schema: v.GenericSchema }; list?: boolean; description: string };
  /** Codes this route answers beyond the shared ones. */
  errors?: ErrorCode[];
}

export type RouteKey = `${HttpMethod} ${string}`;

const deposit = { name: 'Deposit', schema: depositRecord };
const withdrawal = { name: 'Withdrawal', schema: withdrawalRecord };
const conversion = { name: 'Conversion', schema: conversionRecord };
const webhook = { name: 'Webhook', schema: webhookRecord };
/** A list route: newest first, paged with the shared cursor, as every list of the contract is. */
function listRoute(operationId: string, tag: RouteDoc['tag'], query: v.GenericSchema, record: { name: string; schema: v.GenericSchema }): RouteDoc {
  const plural = `${record.name.toLowerCase()}s`;
  return {
    operationId,
    tag,
    summary: `List ${plural}`,
    description: 'Newest first; follow `pagination.nextCursor` until it is null.',
    query: { schema: query, defaultLimit: LIST_LIMIT.default },
    success: { status: 200, record, list: true, description: `A page of ${plural}` },
  };
}
const webhookExample = { url: 'https://example.com/webhooks/cambio', events: ['deposit.completed', 'withdrawal.completed'], description: 'Orders service' };

export const ROUTE_DOCS: Record<RouteKey, RouteDoc> = {
  'GET /v1/company': {
    operationId: 'getCompany',
    tag: 'Company',
    summary: 'Get the company',
    description: 'The company the API key belongs to.',
    success: { status: 200, record: { name: 'Company', schema: companyRecord }, description: 'The company' },
  },
  'GET /v1/company/balance': {
    operationId: 'getBalance',
    tag: 'Company',
    summary: 'Get the balance',
    description:
      'Every currency, zero when never held. `available`: spendable now; `pending`: deposits seen on chain, not yet ' +
      'confirmed; `locked`: held for withdrawals in flight. Every change is a ledger entry written in the same transaction.',
    success: { status: 200, record: { name: 'Balance', schema: balanceRecord }, description: 'Balances by currency' },
  },
  'POST /v1/deposits': {
    operationId: 'createDeposit',
    tag: 'Deposits',
    summary: 'Create a deposit',
    description:
      'An address on `network` for this deposit only: on `tron` derived from the service xpub, on ' +
      `${networkCodes(EVM_NETWORK_NAMES, 'and')} the CREATE2 address of a forwarder computed from the deposit (nothing is deployed until ` +
      'it is paid), on `solana` a wallet of its own (pay it as any Solana wallet: the payer\'s wallet sends the USDT to its ' +
      'token account, creating that account when it has none). A network the stage does not open → 400 `VALIDATION_FAILED` on `network`. ' +
      'Whatever arrives is credited once its block is final on that network (`requiredConfirmations`: 19 on TRON; on Solana, ' +
      '`finalized` commitment); a transfer a reorganisation removes ' +
      'first is never credited, and `deposit.transfer_reversed` says so. ' +
      '`awaiting_payment` → `confirming` → `completed`; `expired` after 24 h without funds (late funds are ' +
      'still credited). `held` (with `holdReason`, event `deposit.held`): the funds arrived but are not credited, because the ' +
      'token\'s issuer froze the deposit address (`address_frozen`: credited once it is unfrozen) or the payer is on the ' +
      'sanctions screening list (`sender_sanctioned`: credited only if Cambio releases it). A `completed` deposit whose address ' +
      'the issuer freezes while its USDT is still there goes to `held` (`address_frozen`, event `deposit.held`): that credit ' +
      'leaves `available` (as much of it as is still available) and `creditedAmount`, and comes back once it is unfrozen. `split` forwards a share of every confirmed transfer on chain; while the company\'s withdrawal ' +
      'allowlist is on (dashboard, Integrations), its address must be on it for the deposit\'s network and usable, or 422 `ADDRESS_NOT_ALLOWED`. ' +
      'A split address Cambio refuses as a destination → 422 `ADDRESS_NOT_ALLOWED` on `split.address` with `details.reason` ' +
      '(as for a withdrawal: `cambio_address`, `token_contract`, `unspendable`), and so is one on the sanctions screening list ' +
      '(OFAC SDN digital-currency addresses and the stage\'s own entries, compared in any letter case; `details.reason: "sanctioned"`); ' +
      'nothing is written. 503 `NETWORK_UNAVAILABLE`: the network cannot give a new address this moment (Solana\'s are made ' +
      'ahead, every minute; retry shortly); nothing is written. 503 `SCREENING_UNAVAILABLE`: a `split` was given while the stage\'s ' +
      'sanctions screening list has not been loaded yet (a new stage, before its first import of OFAC\'s list); nothing is written, retry later.',
    body: {
      name: 'CreateDepositRequest',
      schema: createDepositBody,
      example: { method: 'usdt', network: 'tron', reference: 'order-1001', amount: '25.00' },
    },
    success: { status: 201, record: deposit, description: 'The deposit, with its address' },
    errors: ['DUPLICATE_REFERENCE', 'ADDRESS_NOT_ALLOWED', 'NETWORK_UNAVAILABLE', 'SCREENING_UNAVAILABLE'],
  },
  'GET /v1/deposits/{id}': {
    operationId: 'getDeposit',
    tag: 'Deposits',
    summary: 'Get a deposit',
    success: { status: 200, record: deposit, description: 'The deposit' },
  },
  'POST /v1/withdrawals': {
    operationId: 'createWithdrawal',
    tag: 'Withdrawals',
    summary: 'Create a withdrawal',
    description:
      '`amount + fee` moves from `available` to `locked` atomically, or 422 `INSUFFICIENT_BALANCE` and nothing is written. ' +
      'A network the stage does not open → 400 `VALIDATION_FAILED` on `network`; `address` must be an address of `network`. ' +
      'On `solana` it is a wallet (32 bytes on the Ed25519 curve): the payout goes to its USDT associated token account, created when ' +
      'missing; or that associated token account itself (not frozen), paid as it is. Another token\'s account, a USDT token account ' +
      'that is not its owner\'s associated one, a frozen one, or another off-curve address → 400 `VALIDATION_FAILED` saying what it is, ' +
      'since USDT sent there is lost; 503 `NETWORK_UNAVAILABLE` when the Solana node cannot say what the address is this moment ' +
      '(nothing is written: retry). ' +
      '`pending` → `processing` (signed and broadcast) → `completed` | `failed` (funds back to `available`). ' +
      'While the company\'s withdrawal allowlist is on (dashboard, Integrations), `address` must be on it for `network` and past its ' +
      'waiting period, or 422 `ADDRESS_NOT_ALLOWED` and nothing is written: a leaked API secret cannot add an address. ' +
      'A destination Cambio refuses → 422 `ADDRESS_NOT_ALLOWED` with `details: {field, address, reason}`, whatever the allowlist says, ' +
      'and nothing is written: `cambio_address` (a Cambio hot wallet, or a Cambio deposit address on any network, in either form: ' +
      'the `0x…` twin of a TRON deposit address is refused too), `token_contract` (the network\'s USDT contract, Solana\'s USDT mint, ' +
      'or the deposit forwarders\' factory or implementation), `unspendable` (any account below 2^32 in either form: the zero address, `0x…dEaD`, the precompiles `0x…01`–`0x…11` and the chains\' system contracts; ' +
      'TRON\'s zero address `T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb`; on Solana the System program `11111111111111111111111111111111`, ' +
      'the incinerator and the Token programs). ' +
      'An `address` on the sanctions screening list (OFAC SDN digital-currency addresses, an Ethereum one on every EVM network, ' +
      'and the stage\'s own entries; compared in any letter case) → 422 `ADDRESS_NOT_ALLOWED` with `details.reason: "sanctioned"`, ' +
      'whatever the allowlist says, and nothing is written. 503 `SCREENING_UNAVAILABLE` while the stage\'s screening list has not been ' +
      'loaded yet (a new stage, before its first import of OFAC\'s list): no address is accepted unscreened, nothing is written, retry later. ' +
      'A destination listed after the request, while the withdrawal waited `pending`, is screened again before it is signed: the withdrawal ' +
      'ends `failed` with `failureReason: "DESTINATION_SANCTIONED"` and its amount and fee back in `available` (`withdrawal.failed`). ' +
      'A `reference` starting `split:` (in any letter case) is reserved for the withdrawals that forward deposit splits: 400 `VALIDATION_FAILED`. ' +
      'The example address is outside every range Cambio derives deposit addresses from, so it pays no deposit.',
    body: {
      name: 'CreateWithdrawalRequest',
      schema: createWithdrawalBody,
      example: { method: 'usdt', network: 'tron', address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', amount: '5.00', reference: 'payout-1001' },
    },
    success: { status: 201, record: withdrawal, description: 'The withdrawal, pending' },
    // LIMIT_REACHED: the company's daily withdrawal limit (details dailyLimit, sentToday, remaining).
    errors: ['DUPLICATE_REFERENCE', 'INSUFFICIENT_BALANCE', 'AMOUNT_TOO_SMALL', 'ADDRESS_NOT_ALLOWED', 'LIMIT_REACHED', 'NETWORK_UNAVAILABLE', 'SCREENING_UNAVAILABLE'],
  },
  'GET /v1/withdrawals/{id}': {
    operationId: 'getWithdrawal',
    tag: 'Withdrawals',
    summary: 'Get a withdrawal',
    success: { status: 200, record: withdrawal, description: 'The withdrawal' },
  },
  'POST /v1/conversions/quote': {
    operationId: 'createQuote',
    tag: 'Conversions',
    summary: 'Quote a USDT → BRL conversion',
    description: 'Fixes the rate for 30 s. `settlementAmount` = `sourceAmount` × `rate`, rounded down to the cent.',
    body: { name: 'CreateQuoteRequest', schema: createQuoteBody, example: { sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: '10.00' } },
    success: { status: 201, record: { name: 'Quote', schema: quoteRecord }, description: 'The quote' },
    errors: ['PRICE_UNAVAILABLE'],
  },
  'POST /v1/conversions': {
    operationId: 'createConversion',
    tag: 'Conversions',
    summary: 'Execute a quote',
    description: 'One transaction: USDT debited, BRL credited, quote marked used.',
    body: { name: 'CreateConversionRequest', schema: createConversionBody, example: { quoteId: 'qte_01JBZ6W1V7Q8R9S0T1A2V3W4X5', reference: 'convert-1001' } },
    success: { status: 201, record: conversion, description: 'The completed conversion' },
    errors: ['NOT_FOUND', 'QUOTE_ALREADY_USED', 'QUOTE_EXPIRED', 'INSUFFICIENT_BALANCE'],
  },
  'GET /v1/conversions': listRoute('listConversions', 'Conversions', listConversionsQuery, conversion),
  'GET /v1/conversions/{id}': {
    operationId: 'getConversion',
    tag: 'Conversions',
    summary: 'Get a conversion',
    success: { status: 200, record: conversion, description: 'The conversion' },
  },
  'GET /v1/webhooks': listRoute('listWebhooks', 'Webhooks', listWebhooksQuery, webhook),
  'POST /v1/webhooks': {
    operationId: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Create a webhook',
    description:
      'At most 10 per company. `url` must be `https://` and resolve to public addresses only (the local runtime alone also ' +
      'allows `http://` loopback targets). The answer carries the signing `secret`, shown only this once.',
    body: { name: 'WebhookRequest', schema: webhookBody, example: webhookExample },
    success: { status: 201, record: { name: 'CreatedWebhook', schema: createdWebhookRecord }, description: 'The webhook and its secret' },
    errors: ['LIMIT_REACHED'],
  },
  'GET /v1/webhooks/{id}': {
    operationId: 'getWebhook',
    tag: 'Webhooks',
    summary: 'Get a webhook',
    success: { status: 200, record: webhook, description: 'The webhook' },
  },
  'PUT /v1/webhooks/{id}': {
    operationId: 'replaceWebhook',
    tag: 'Webhooks',
    summary: 'Replace a webhook',
    description: 'Same body as POST; omitted optional fields take their defaults. The secret is kept.',
    body: { name: 'WebhookRequest', schema: webhookBody, example: webhookExample },
    success: { status: 200, record: webhook, description: 'The webhook as replaced' },
  },
  'DELETE /v1/webhooks/{id}': {
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook',
    success: { status: 200, record: { name: 'DeletedWebhook', schema: deletedWebhookRecord }, description: 'The webhook is gone' },
  },
};
