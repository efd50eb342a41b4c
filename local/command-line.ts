import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * How a command refuses bad usage: a message and its usage line on stderr, exit 2, nothing written
 * (the operator commands in ops/ and the local runtime's own, such as ledger:csv).
 */

/** Prints the message and the usage, and exits 2. */
export const refuser =
  (usage: string) =>
  (message: string): never => {
    console.error(`${message}\n${usage}`);
    process.exit(2);
  };

/** The options as parseArgs reads them; an unknown option or a stray argument is bad usage (exit 2), not a stack trace. */
export function argumentsOf<O extends NonNullable<ParseArgsConfig['options']>>(options: O, refuse: (message: string) => never, allowPositionals = false) {
  try {
    return parseArgs({ options, allowPositionals, strict: true });
  } catch (error) {
    return refuse(`${(error as Error).message}.`);
  }
}
