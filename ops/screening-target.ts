import { hostname, userInfo } from 'node:os';
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

// How every command refuses bad usage (a message and exit 2, nothing written): in local/, which the
// local runtime's own commands (ledger:csv) share, as ops/ imports local/ and never the reverse.
export { argumentsOf, refuser } from '../local/command-line.ts';

/** The table the command acts on, checked before anything is read (stage-table.ts). */
export function screeningTarget(values: { stage?: string; table?: string }, refuse: (message: string) => never): OnTable {
  const { stage, table } = stageTableOf(values, refuse);
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
