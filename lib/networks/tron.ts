import { tron } from '../../functions/networks/tron/network.ts';
import { sweepItem } from '../../functions/networks/tron/sweep-record.ts';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Binder } from '../api-function.ts';
import { secretRead } from '../binders.ts';
import { hotWalletKey, TETHER_CONTROLS, type NetworkFamilyStack } from './network-stack.ts';

/**
 * TRON on the stage: open on every stage, the first network (its jobs run on the chain jobs' own
 * schedule, with no input, and its metrics carry no Network). Its hot wallet is one secp256k1 KMS
 * key; its deposit addresses derive from the account xprv in a secret the sweeper alone reads; on
 * mainnet TronGrid's API key, a secret every chain job reads.
 */
export const tronStack: NetworkFamilyStack = {
  destinationReads: () => [],
  onStage(stack, config) {
    const key = hotWalletKey(stack, 'HotWalletKey', `Cambio ${config.stage} hot wallet (TRON, secp256k1)`, `alias/cambio-${config.stage}-hot-wallet`);
    const tronGridKey = secretRead('TRONGRID_API_KEY_SECRET', config.functionEnvironment.TRONGRID_API_KEY_SECRET);
    return {
      open: [
        {
          name: 'tron',
          title: tron.title,
          pollEveryMinutes: config.pollerScheduleMinutes,
          blockMs: tron.blockMs,
          stuckBecause: 'signed but neither settled nor expired,',
          issuerControls: TETHER_CONTROLS,
          // The sender reads its TRX each run and signs a payout only while what is left covers its fee
          // limit (functions/networks/tron/withdrawal-sending.ts): it counts one when some wait for TRX.
          gasLow: { feeSymbol: 'TRX', minimumSetting: 'WITHDRAWAL_FEE_LIMIT_SUN for each pending payout' },
          // Its sweeps back off an address after three failures (functions/networks/tron/sweeps.ts).
          sweepsHeldAfterFailures: true,
        },
      ],
      nodes: [tronGridKey],
      signing: [hotWalletSigning(key)],
      depositAddressKeys: [secretRead('SWEEP_ACCOUNT_XPRV_SECRET', config.functionEnvironment.SWEEP_ACCOUNT_XPRV_SECRET)],
      hotWalletAddresses: [hotWalletAddress(key)],
      // A partition for each deposit address's sweeps.
      sweepRecordPartitions: [sweepItem.open('*').PK],
      hotWalletKeys: [key],
    };
  },
};

/** The hot wallet key, to sign with (the withdrawal sender and the sweeper alone). */
const hotWalletSigning = (key: IKey): Binder => (fn) => {
  key.grant(fn, 'kms:Sign', 'kms:GetPublicKey');
  return { SIGNER_KMS_KEY_ID: key.keyId };
};

/** The hot wallet key's public half only: the function learns the address and cannot sign. */
const hotWalletAddress = (key: IKey): Binder => (fn) => {
  key.grant(fn, 'kms:GetPublicKey');
  return { SIGNER_KMS_KEY_ID: key.keyId };
};
