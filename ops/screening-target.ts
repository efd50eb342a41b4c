import { hostname, userInfo } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { onStageTable, stageTableOf, type OnTable } from './stage-table.ts';

/**
 * What the screening commands (`screening:import`, `screening:add`, `screening:remove`) share: how
 * they name the table they act on (the local runtime's data by default; a deployed stage's with
 * `--stage` and `--table`, with the operator's AWS credentials), who the operator is for the audit
 * log, and how they refuse bad usage (a message and exit 2, nothing written).
 */
export const TARGET_OPTIONS = {
  stage: { type: 'string', default: 'local' },
  table: { type: 'string' },
} as const;

export const TARGET_USAGE = '[--stage sandbox|production --table <TableName output>]';

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

/** The table the command acts on, checked before anything is read (stage-table.ts). */
export function screeningTarget(values: { stage?: string; table?: string }, refuse: (message: string) => never): OnTable {
  const { stage, table } = stageTableOf(values, refuse);
  if (stage === 'local' && table) refuse('--table goes with --stage sandbox|production; without --stage the command works on the local runtime.');
  return onStageTable(stage, table);
}

/** Who runs the command, for the audit log: the machine's account and host (in AWS, CloudTrail has the IAM identity). */
export function operator(): string {
  let user = process.env.USER ?? 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (a container): the environment's name stands.
  }
  return `${user}@${hostname()}`;
}
