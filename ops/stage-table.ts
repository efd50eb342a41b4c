import { createDocumentClient } from '#adapters/dynamo/client';
import { parseSettings } from '#functions/settings/schema';
import { SLICES, type SliceSettings } from '#functions/settings/functions';
import { STAGES, type StageName } from '../config/stages.ts';
import { runningRuntime, withLocalData } from '#local/local-data';

/** Runs `work` on the table an operator's command acts on. */
export type OnTable = <T>(work: (db: ReturnType<typeof createDocumentClient>, tableName: string) => Promise<T>) => Promise<T>;

/**
 * The stage `--stage` names and the table `--table` names for it, checked before anything is read:
 * a deployed stage needs its table, and never another stage's. Without `--stage` (local), a table
 * is refused: the command would act on the local data, exit 0, and leave the stage's table the
 * operator named untouched; unless `localTable` says the command takes another table of the local
 * DynamoDB (deposits:release). The caller refuses its own options that go with a deployed stage.
 */
export function stageTableOf(
  values: { stage?: string; table?: string },
  refuse: (message: string) => never,
  options: { localTable?: 'allowed' } = {},
): { stage: StageName; table: string | undefined } {
  const stage = values.stage as StageName;
  if (!Object.hasOwn(STAGES, stage)) refuse(`Unknown stage "${values.stage}" (local, sandbox or production).`);
  const table = values.table;
  if (stage === 'local' && table && options.localTable !== 'allowed') refuse('--table goes with --stage sandbox|production; without --stage the command works on the local runtime.');
  if (stage !== 'local') {
    if (!table) refuse(`--stage ${stage} needs --table <the stack's TableName output>.`);
    // The stack names its table after itself (Cambio-<stage>-…): what a command writes for one stage
    // (a company of its environment, its screening list) must not land in another stage's table.
    const otherStage = Object.keys(STAGES).find((name) => name !== stage && table.startsWith(`Cambio-${name}-`));
    if (otherStage) refuse(`--table ${table} is the ${otherStage} stage's table, not ${stage}'s.`);
  }
  return { stage, table };
}

/** The stage's table: a deployed stage's, named, with the operator's AWS credentials; or the local runtime's data. */
export function onStageTable(stage: StageName, table: string | undefined): OnTable {
  // Each command refuses a table without its stage first (exit 2, its usage): dropped here, the
  // command would act on the local data, exit 0, while the stage's table the operator named is untouched.
  if (stage === 'local' && table) throw new Error(`--table ${table} names no table of the local runtime: give its --stage`);
  return async (work) => {
    const run = async (endpoint: string | undefined, tableName: string) => {
      const db = createDocumentClient(endpoint);
      try {
        return await work(db, tableName);
      } finally {
        db.destroy();
      }
    };
    return stage === 'local' ? withLocalData(run) : run(parseSettings(['DYNAMODB_ENDPOINT'], process.env).DYNAMODB_ENDPOINT, table!);
  };
}

/** A stage's chain settings, for a command that reads its chains (through the registries): a
 * deployed stage's from config/stages.ts; locally, the EVM and Solana nodes the running `npm start`
 * opened (their addresses change with each start). */
export function stageChainSettings(stage: StageName): SliceSettings<'chain'> {
  const environment: Record<string, string | undefined> = { ...STAGES[stage].functionEnvironment };
  if (stage === 'local') {
    const running = runningRuntime();
    environment.EVM_NETWORKS = JSON.stringify(running?.evmNetworks ?? {});
    environment.SOLANA = running?.solana ? JSON.stringify(running.solana) : undefined;
  }
  return parseSettings(SLICES.chain, environment) as SliceSettings<'chain'>;
}
