import * as v from 'valibot';
import { AmountFormatError, parseAmount, type Currency } from '#domain/money';
import { isTronAddress } from '#domain/tron-address';

/**
 * Field schemas shared by the routes' bodies (and, later, the OpenAPI document). Each one says
 * in its message what a correct value looks like.
 */

/** A decimal string in the currency's scale, turned into minor units (bigint). */
export const amountField = (currency: Currency) =>
  v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      try {
        return parseAmount(dataset.value, currency);
      } catch (error) {
        if (!(error instanceof AmountFormatError)) throw error;
        addIssue({ message: error.message });
        return NEVER;
      }
    }),
  );

export const REFERENCE_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export const referenceField = v.pipe(
  v.string('must be a string'),
  v.regex(REFERENCE_PATTERN, 'must be 1 to 128 characters of A-Z, a-z, 0-9, ".", "_", ":" or "-"'),
);

export const tronAddressField = v.pipe(
  v.string('must be a TRON address string'),
  v.check((value: string) => isTronAddress(value), 'must be a valid TRON address (base58check, starting with T)'),
);

export const literalField = <T extends string>(value: T) => v.literal(value, `must be "${value}"`);
