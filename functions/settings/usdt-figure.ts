import * as v from 'valibot';
import { parseAmount, parseFeeAmount } from '#functions/shared/money';

/**
 * A USDT figure a network's settings keep as its decimal string (an EVM network's or Solana's
 * `withdrawalFeeUsdt`, `sweepMinimumUsdt`), checked by the parser the functions read it with at cold
 * start (adapters/config.ts, the sweepers' deps), so that what synth and the local runtime accept
 * never fails a function's start: a regex of its own let through "01" and "00.10", which the parser
 * refuses. Its message is the parser's, as for the stage-wide figures (schema.ts `usdt`).
 */
const checkedBy = (parse: (value: string) => unknown) =>
  v.pipe(
    v.string(),
    v.rawCheck<string>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      try {
        parse(dataset.value);
      } catch (error) {
        addIssue({ message: `is invalid: ${(error as Error).message}` });
      }
    }),
  );

/** A positive amount (a minimum). */
export const usdtFigure = checkedBy((value) => parseAmount(value, 'USDT'));

/** A fee, which may be waived: zero as well ("0", "0.00"), as adapters/config.ts reads it. */
export const usdtFeeFigure = checkedBy(parseFeeAmount);
