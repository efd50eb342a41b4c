import { RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { Key, KeySpec, KeyUsage, type KeyProps } from 'aws-cdk-lib/aws-kms';
import type { StageConfig } from '../../config/stages.ts';
import type { Binder } from '../api-function.ts';
import type { StageScope } from '../stage-scope.ts';

/**
 * The stack's side of the network port (docs/adding-a-network.md): what a family of networks makes
 * on a stage and what the chain jobs, the alarms and the money routes bind of it, so lib/chain-jobs.ts
 * and lib/chain-alarms.ts name no family. Each family's part is a file beside this one, listed in
 * ./registry.ts.
 */
export interface NetworkFamilyStack {
  /** What a money route binds to read a destination on the family's chains (a Solana token
   * account); made from the stage's figures alone, as the API's routes are made before the jobs. */
  destinationReads(config: StageConfig): Binder[];
  /** Makes what the family keeps on the stage, open or not (its hot wallets' keys), and says what
   * the stage opens of it and what each chain job binds. Called once a stage. */
  onStage(stack: StageScope, config: StageConfig): FamilyOnStage;
}

export interface FamilyOnStage {
  /** The family's networks that the stage opens. */
  open: OpenNetwork[];
  /** What every chain job binds to reach the family's nodes: a provider's key, secrets holding node URLs. */
  nodes: Binder[];
  /** What the withdrawal sender and the deposit sweeper bind to sign on the open networks. */
  signing: Binder[];
  /** What the deposit sweeper binds besides: the keys of the family's deposit addresses. */
  depositAddressKeys: Binder[];
  /** What reconcile binds: the open networks' hot wallet addresses, never their signing. */
  hotWalletAddresses: Binder[];
  /** The partitions of the open networks' sweep records (IAM's `dynamodb:LeadingKeys`, `*` a
   * wildcard): a sweep that finishes moves from its open record to the address's history, a delete
   * in the same transaction, so the deposit sweeper may delete there and nowhere else. */
  sweepRecordPartitions: string[];
  /** Every hot wallet key the family made, open or not: only the signing jobs may sign with one. */
  hotWalletKeys: Key[];
}

/** What the issuer can do to a network's USDT, and so which of its alarms can fire: Tether's
 * contracts (TRON's, and TetherToken on the EVM chains) freeze and pause; BSC's BEP20USDT does
 * neither; Tether's newer token (a blocked list) and SPL Token freeze, and have no pause. */
export interface IssuerControls {
  freeze: boolean;
  pause: boolean;
}
export const TETHER_CONTROLS: IssuerControls = { freeze: true, pause: true };
export const NO_CONTROLS: IssuerControls = { freeze: false, pause: false };
export const FREEZE_ONLY: IssuerControls = { freeze: true, pause: false };

/** A network the stage opens, as its schedules and its alarms describe it. */
export interface OpenNetwork {
  name: string;
  title: string;
  /** Its deposit poller's schedule, in minutes: the chain jobs' own for the first network
   * (functions/networks/names.ts FIRST_NETWORK), which runs with no input. */
  pollEveryMinutes: number;
  blockMs: number;
  /** Where its sender and sweeper report the hot wallet short of its fee asset: the asset, and
   * the figure that sets the minimum. */
  gasLow?: { feeSymbol: string; minimumSetting: string };
  /** Where a payout is replaced at a higher fee up to a cap, which it can then wait at: the
   * figure that sets the cap, and the setting that holds it. */
  feeCap?: { figure: string; setting: string };
  /** What a withdrawal processing for over 15 minutes means there, in its alarm's words (the first
   * network's is the stage's own alarm, which says its transactions settle or expire well within that). */
  stuckBecause: string;
  issuerControls: IssuerControls;
  /** Where the sweeper backs off a deposit address after three failed sweeps in a row and counts it
   * held (SweepsHeld, which the stage alarms on): a sweep failing once is retried there. Elsewhere
   * the sweeps failing are alarmed on themselves (SweepsFailing<Network>). */
  sweepsHeldAfterFailures?: true;
}

/** A network's name as it ends a construct id (`ScannerLagEthereum`, `HotWalletKeyPolygon`): ids are
 * PascalCase, and these are part of deployed resources' logical ids, so the form never changes. */
export const idSuffixOf = (network: string): string => `${network[0]!.toUpperCase()}${network.slice(1)}`;

/** A hot wallet's key: signing only, never leaving KMS, and kept when the stack goes (the wallet's
 * funds answer to it). secp256k1 unless the family's curve is another. */
export function hotWalletKey(stack: Stack, id: string, description: string, alias: string, keySpec: KeySpec = KeySpec.ECC_SECG_P256K1): Key {
  const props: KeyProps = { description, keySpec, keyUsage: KeyUsage.SIGN_VERIFY, removalPolicy: RemovalPolicy.RETAIN, alias };
  return new Key(stack, id, props);
}
