/**
 * Compile-time agreement between what handlers answer (the domain's *View functions) and the
 * records the OpenAPI document describes (functions/<area>/records.ts): `npm test` type-checks this
 * file, so a field added to a view without its record (or the reverse) fails the build.
 */
import type * as v from 'valibot';
import type { depositView } from '#functions/deposits/deposits';
import type { withdrawalView } from '#functions/withdrawals/withdrawals';
import type { conversionView, quoteView } from '#functions/conversions/conversions';
import type { createdWebhookView, webhookView, deleteWebhook } from '#functions/webhooks/webhooks';
import type { companyProfile, getBalance } from '#functions/companies/company';
import { depositRecord } from '#functions/handlers/deposits/records';
import { withdrawalRecord } from '#functions/handlers/withdrawals/records';
import { conversionRecord, quoteRecord } from '#functions/handlers/conversions/records';
import { createdWebhookRecord, deletedWebhookRecord, webhookRecord } from '#functions/handlers/webhooks/records';
import { balanceRecord, companyRecord } from '#functions/handlers/company/records';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Check<T extends true> = T;
/** Each assignable to the other: for the balance, whose view types `currency` as a union while
 * the record is a union of one row per currency. */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Out<S extends v.GenericSchema> = v.InferOutput<S>;
export type Checks = [
  Check<Equal<ReturnType<typeof depositView>, Out<typeof depositRecord>>>,
  Check<Equal<ReturnType<typeof withdrawalView>, Out<typeof withdrawalRecord>>>,
  Check<Equal<ReturnType<typeof quoteView>, Out<typeof quoteRecord>>>,
  Check<Equal<ReturnType<typeof conversionView>, Out<typeof conversionRecord>>>,
  Check<Equal<ReturnType<typeof webhookView>, Out<typeof webhookRecord>>>,
  Check<Equal<ReturnType<typeof createdWebhookView>, Out<typeof createdWebhookRecord>>>,
  Check<Equal<Awaited<ReturnType<typeof deleteWebhook>>, Out<typeof deletedWebhookRecord>>>,
  Check<Equal<Awaited<ReturnType<typeof companyProfile>>, Out<typeof companyRecord>>>,
  Check<Mutual<Awaited<ReturnType<typeof getBalance>>, Out<typeof balanceRecord>>>,
];
