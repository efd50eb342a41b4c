/**
 * The time of a test over the sandbox chain: it moves only when the test says, by blocks or by
 * milliseconds, so "19 blocks later" and "past the transaction's lifetime" are exact, not waited for.
 * Give `epochMs` to the sandbox chain and `now` to the jobs.
 */
export class ChainClock {
  private ms: number;

  constructor(
    start: string,
    private readonly blockMs: number,
  ) {
    this.ms = Date.parse(start);
  }

  readonly now = (): Date => new Date(this.ms);
  readonly epochMs = (): number => this.ms;
  readonly advanceBlocks = (blocks: number): void => {
    this.ms += blocks * this.blockMs;
  };
  readonly advance = (ms: number): void => {
    this.ms += ms;
  };
  readonly setTo = (epochMs: number): void => {
    this.ms = epochMs;
  };
}
