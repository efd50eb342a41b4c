/**
 * Where USDT lives once Tether deprecates a contract for an upgraded one (../shared/networks.md,
 * "Deprecation"): a payment through the old contract is forwarded to the upgraded one, which emits
 * its Transfer event and keeps the balances, the freeze list and the pause. Each network's chain
 * reads the token's `deprecated()`/`upgradedAddress()` its own way (`readUpgraded`, null when not
 * deprecated); this keeps the answer for a minute per contract, so a job run costs no read, and
 * forgets a failed read so the next call asks again (a failure is thrown, never taken as "not
 * deprecated").
 */
export class Deprecations {
  private readonly known = new Map<string, { readAt: number; upgraded: Promise<string | null> }>();

  constructor(
    private readonly readUpgraded: (contract: string) => Promise<string | null>,
    private readonly checkEveryMs = 60_000,
  ) {}

  /** The contract's upgraded one, or null while it is not deprecated. */
  upgradedFrom(contract: string): Promise<string | null> {
    const known = this.known.get(contract);
    if (known && Date.now() - known.readAt < this.checkEveryMs) return known.upgraded;
    const upgraded = this.readUpgraded(contract);
    upgraded.catch(() => this.known.delete(contract));
    this.known.set(contract, { readAt: Date.now(), upgraded });
    return upgraded;
  }

  /** The contracts whose Transfer events are USDT's: the stage's, and its upgraded one once deprecated. */
  async contracts(contract: string): Promise<string[]> {
    const upgraded = await this.upgradedFrom(contract);
    return upgraded ? [contract, upgraded] : [contract];
  }

  /** Where USDT lives now: the upgraded contract once the stage's is deprecated, else the stage's. */
  async current(contract: string): Promise<string> {
    return (await this.upgradedFrom(contract)) ?? contract;
  }
}
