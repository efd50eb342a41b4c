import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges one cdk-nag finding (AwsSolutions pack, run by test/infra/nag.test.ts) on a construct
 * and its children, with the design decision that makes it right for Cambio. Every acknowledgment
 * goes through here, so `grep -rn "accept(" lib/` lists them all; the test fails on any finding
 * that is not acknowledged and on any acknowledgment it does not know.
 */
export function accept(construct: IConstruct, id: string, reason: string): void {
  Validations.of(construct).acknowledge({ id, reason });
}
