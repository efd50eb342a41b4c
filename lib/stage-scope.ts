import type { Stack } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { CambioFunction, CambioFunctionProps } from './api-function.ts';
import type { FailedInvocations } from './safeguards.ts';

/**
 * What the stage's parts (./chain-jobs.ts, ./webhook-delivery.ts) make their resources in: the stack
 * itself (CambioStack), so a part moved out of the stack's file keeps its logical ids, and a deployed
 * stage's keys, queues and functions are not replaced.
 */
export interface StageScope extends Stack {
  readonly table: Table;
  readonly failedInvocations: FailedInvocations;
  /** A function of this stage, on the stage's figures and xpub, listed for the per-function alarms. */
  stageFunction(handler: string, props: Omit<CambioFunctionProps, 'handler' | 'config' | 'depositAccountXpub'>): CambioFunction;
}
