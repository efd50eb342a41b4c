import { parseRate, type MidPrice, type Pair, type PriceSource, type Rate } from '#functions/conversions/pricing';

/**
 * A fixed rate for the local runtime and the sandbox stage, where no market price is wanted:
 * integrators get the same settlement for the same amount every time.
 */
export class StaticPriceSource implements PriceSource {
  private readonly rate: Rate;

  constructor(rate: string) {
    this.rate = parseRate(rate);
  }

  async midRate(_pair: Pair): Promise<MidPrice> {
    return { rate: this.rate, source: 'static', asOf: new Date() };
  }
}
