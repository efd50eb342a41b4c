declare const alongside: unique symbol;

/**
 * A write built outside the domain that a store makes in a record's own transaction, beside the
 * record: the answer to the request that creates it, for its Idempotency-Key
 * (functions/http/idempotency.ts), so no crash between the record and its answer leaves the key to
 * a retry that meets the record as a duplicate. Opaque here: the domain only passes it on.
 */
export type Alongside = { readonly [alongside]: true };

/** How a route builds it from the record as created. */
export type AlongsideOf<R> = (record: R) => Alongside;
