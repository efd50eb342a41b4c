import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SandboxIssuer } from '../sandbox-issuer.ts';
import { isTronAddress } from './tron-address.ts';
import { SANDBOX_UPGRADED_USDT, SandboxToken } from './sandbox-token.ts';

/** TetherToken's ceiling on `basisPointsRate` as the issuer command takes it (../shared/networks.md). */
const MAX_FEE_BASIS_POINTS = 20;

/**
 * Tether's issuer on TRON's sandbox chain: what `npm run sandbox:issuer -- … --network tron` and the
 * tests do to the sandbox's USDT (sandbox-token.ts says what each control does to a transfer). Each
 * call takes effect for every transfer executed after it, in the stage's table; bad arguments throw
 * a RangeError before anything is written.
 */
export function tronSandboxIssuer(db: DynamoDBDocumentClient, tableName: string): SandboxIssuer {
  const token = new SandboxToken(db, tableName);
  return {
    freeze: async (address) => token.setFrozen(tronAddress(address), true),
    unfreeze: async (address) => token.setFrozen(tronAddress(address), false),
    pause: () => token.setControls({ paused: true }),
    unpause: () => token.setControls({ paused: false }),
    setFee: async (basisPoints, maxFee) => {
      if (!Number.isInteger(basisPoints) || basisPoints < 0 || basisPoints > MAX_FEE_BASIS_POINTS) {
        throw new RangeError(`basis points must be a whole number from 0 to ${MAX_FEE_BASIS_POINTS}, got ${String(basisPoints)}`);
      }
      if (typeof maxFee !== 'bigint' || maxFee < 0n) throw new RangeError(`the maximum fee must be USDT minor units, 0 or more, got ${String(maxFee)}`);
      await token.setControls({ feeBasisPoints: basisPoints, maxFee });
    },
    // The upgraded contract is always the same address: deprecating again changes nothing.
    deprecate: async () => {
      await token.setControls({ upgradedContract: SANDBOX_UPGRADED_USDT });
      return { upgradedContract: SANDBOX_UPGRADED_USDT };
    },
  };
}

function tronAddress(address: string): string {
  if (!isTronAddress(address)) throw new RangeError(`not a TRON address (base58check, starting with T): ${JSON.stringify(address)}`);
  return address;
}
