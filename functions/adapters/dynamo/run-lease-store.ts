import type { RunLeases } from '#functions/networks/run-lease';
import { runLeaseItem } from './items/run-lease.ts';
import { TableStore } from './table-store.ts';

/** The job leases in the table (functions/networks/run-lease.ts), each one conditional write. */
export class DynamoRunLeases extends TableStore implements RunLeases {
  take(name: string, holder: string, until: Date, now: Date): Promise<boolean> {
    // None yet, or the last one lapsed (released, or its run died).
    return this.putIf(runLeaseItem.toItem(name, holder, until), 'attribute_not_exists(PK) OR #until <= :now', {
      names: { '#until': 'until' },
      values: { ':now': now.toISOString() },
    });
  }

  async release(name: string, holder: string, now: Date): Promise<void> {
    await this.updateIf(runLeaseItem.key(name), 'SET #until = :now', 'holder = :holder', {
      names: { '#until': 'until' },
      values: { ':now': now.toISOString(), ':holder': holder },
    });
  }
}
