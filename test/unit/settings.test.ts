import { describe, expect, it } from 'vitest';
import { checkStageSettings, parseSettings, SettingsError } from '#functions/settings/schema';
import { FUNCTION_SETTINGS, functionSettings } from '#functions/settings/functions';
import { STAGES } from '../../config/stages.ts';

const XPUB = 'xpub6CpihtY9HVc1jNJWCiXnRbpXm5BgVNKqZMsM4XqpDcQigJr6AHNwaForLZ3kkisDcRoaXSUms6DJNhxFtQGeZfWAQWCZQe1esNetx5Wqe4M';
/** What the stack gives the create-deposit function on the sandbox stage. */
const TRON_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const createDepositEnv = { STAGE: 'sandbox', TABLE_NAME: 'cambio-sandbox', DEPOSIT_ACCOUNT_XPUB: XPUB, DEPOSIT_REQUIRED_CONFIRMATIONS: '19', USDT_CONTRACT: TRON_USDT };

describe('the settings schema', () => {
  it.each(['local', 'sandbox', 'production'] as const)("accepts the %s stage's figures in config/stages.ts", (stage) => {
    const parsed = checkStageSettings(stage, STAGES[stage].functionEnvironment);

    expect(parsed.DEPOSIT_REQUIRED_CONFIRMATIONS).toBe(19);
    expect(parsed.WITHDRAWAL_FEE_LIMIT_SUN).toBe(30_000_000);
  });

  it('types what it parses: amounts as minor units, counts as numbers, schedules as milliseconds, flags as booleans', () => {
    const parsed = checkStageSettings('local', STAGES.local.functionEnvironment);

    expect(parsed.WITHDRAWAL_FEE_USDT).toBe(1_000_000n);
    expect(parsed.SWEEP_MINIMUM_USDT).toBe(1_000_000n);
    expect(parsed.SWEEP_TOP_UP_SUN).toBe(15_000_000);
    expect(parsed.WEBHOOK_RETRY_SCHEDULE.slice(0, 3)).toEqual([5_000, 300_000, 1_800_000]);
    expect(parsed.WEBHOOK_ALLOW_LOOPBACK_HTTP).toBe(true);
  });

  it('fills the defaults of settings left unset', () => {
    const parsed = parseSettings(['CONVERSION_SPREAD_BPS', 'WEBHOOK_TIMEOUT_MS', 'WEBHOOK_CATCH_UP_MIN_AGE_MS', 'WEBHOOK_ALLOW_LOOPBACK_HTTP', 'TRONGRID_URL'], {});

    expect(parsed).toEqual({ CONVERSION_SPREAD_BPS: 50, WEBHOOK_TIMEOUT_MS: 15_000, WEBHOOK_CATCH_UP_MIN_AGE_MS: 60_000, WEBHOOK_ALLOW_LOOPBACK_HTTP: false, TRONGRID_URL: undefined });
  });

  it.each([
    ['DEPOSIT_REQUIRED_CONFIRMATIONS', '0', /DEPOSIT_REQUIRED_CONFIRMATIONS must be a whole number from 1 to 100, got "0"/],
    ['DEPOSIT_REQUIRED_CONFIRMATIONS', '19.5', /DEPOSIT_REQUIRED_CONFIRMATIONS must be a whole number/],
    ['WITHDRAWAL_FEE_LIMIT_SUN', '3e7', /WITHDRAWAL_FEE_LIMIT_SUN must be a whole number from 1000000 to 1000000000, got "3e7"/],
    ['WITHDRAWAL_FEE_USDT', '1.0000001', /WITHDRAWAL_FEE_USDT is invalid: must have at most 6 decimal places/],
    ['WITHDRAWAL_MINIMUM_USDT', '0', /WITHDRAWAL_MINIMUM_USDT is invalid: must be greater than zero/],
    ['WEBHOOK_RETRY_SCHEDULE', '5s,soon', /WEBHOOK_RETRY_SCHEDULE is invalid: retry schedule entry "soon"/],
    ['SIGNER', 'hsm', /SIGNER must be kms, secrets-manager or local, got "hsm"/],
    ['WEBHOOK_ALLOW_LOOPBACK_HTTP', 'yes', /WEBHOOK_ALLOW_LOOPBACK_HTTP must be one of true, false/],
  ] as const)('refuses %s=%s, naming the stage and the variable', (name, value, message) => {
    const figures = { ...STAGES.sandbox.functionEnvironment, [name]: value };

    expect(() => checkStageSettings('sandbox', figures)).toThrow(message);
    expect(() => checkStageSettings('sandbox', figures)).toThrow(/^Stage sandbox: /);
  });

  // A network's own USDT figures are kept as strings and parsed when a function starts
  // (adapters/config.ts, the sweepers): what the stage's check lets through must parse there.
  const ETHEREUM = {
    chainId: 1,
    rpcUrl: 'https://eth.example.com/rpc',
    usdtContract: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    forwarderFactory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    forwarderImplementation: '0xa16E02E87b7454126E5E10d957A927A7F5B5d2be',
    finalizedTag: true,
    confirmations: 64,
  };
  const SOLANA = { rpcUrl: 'https://solana.example.com/rpc', usdtMint: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', depositSeedSecret: 'cambio/solana-deposit-seed' };
  const withNetworkFigure = (figure: 'withdrawalFeeUsdt' | 'withdrawalMinimumUsdt' | 'sweepMinimumUsdt', value: string) => ({
    ...STAGES.sandbox.functionEnvironment,
    EVM_NETWORKS: JSON.stringify({ ethereum: { ...ETHEREUM, [figure]: value } }),
    SOLANA: JSON.stringify({ ...SOLANA, [figure]: value }),
  });

  it.each([
    ['withdrawalFeeUsdt', '00.10', /must be a positive decimal string/],
    ['withdrawalFeeUsdt', '01', /must be a positive decimal string/],
    ['withdrawalFeeUsdt', '1.0000001', /must have at most 6 decimal places/],
    ['withdrawalMinimumUsdt', '0', /must be greater than zero/],
    ['withdrawalMinimumUsdt', '10 USDT', /must be a positive decimal string/],
    ['sweepMinimumUsdt', '0', /must be greater than zero/],
    ['sweepMinimumUsdt', '00.5', /must be a positive decimal string/],
  ] as const)("refuses a network's %s=%s as the functions would at their start, naming EVM_NETWORKS and SOLANA", (figure, value, message) => {
    const problems = (() => {
      try {
        checkStageSettings('sandbox', withNetworkFigure(figure, value));
        return [];
      } catch (error) {
        return (error as SettingsError).problems;
      }
    })();

    expect(problems).toHaveLength(2);
    expect(problems.find((problem) => problem.includes('EVM_NETWORKS'))).toMatch(new RegExp(`^Stage sandbox: EVM_NETWORKS.* is invalid: ${message.source}`));
    expect(problems.find((problem) => problem.includes('SOLANA'))).toMatch(new RegExp(`^Stage sandbox: SOLANA.* is invalid: ${message.source}`));
  });

  it.each([
    ['withdrawalFeeUsdt', '0'],
    ['withdrawalFeeUsdt', '0.00'],
    ['withdrawalFeeUsdt', '0.10'],
    ['sweepMinimumUsdt', '0.5'],
    ['sweepMinimumUsdt', '25'],
  ] as const)("accepts a network's %s=%s, as the functions read it", (figure, value) => {
    const parsed = checkStageSettings('sandbox', withNetworkFigure(figure, value));

    expect(parsed.EVM_NETWORKS?.ethereum?.[figure]).toBe(value);
    expect(parsed.SOLANA?.[figure]).toBe(value);
  });

  it('refuses a stage that leaves out a setting its choices need, or a required one', () => {
    const { PRICE_SOURCE_URL: _url, SWEEP_MINIMUM_USDT: _minimum, ...figures } = STAGES.production.functionEnvironment;

    expect(() => checkStageSettings('production', figures)).toThrow(
      'Stage production: Missing required environment variable SWEEP_MINIMUM_USDT; Stage production: Missing required environment variable PRICE_SOURCE_URL (PRICE_SOURCE=http)',
    );
  });

  it("refuses the local stage's keys and loopback webhooks on a deployed stage, and names it no setting does not know", () => {
    const figures = { ...STAGES.sandbox.functionEnvironment, SIGNER: 'local', LOCAL_HOT_WALLET_KEY: STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY, WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true', WITHDRAWAL_FEE: '1' } as const;

    const problems = (() => {
      try {
        checkStageSettings('sandbox', figures);
        return [];
      } catch (error) {
        return (error as SettingsError).problems;
      }
    })();

    expect(problems).toEqual([
      'Stage sandbox: LOCAL_HOT_WALLET_KEY is for the local stage only',
      'Stage sandbox: SIGNER=local is for the local stage only',
      'Stage sandbox: WEBHOOK_ALLOW_LOOPBACK_HTTP=true is for the local stage only',
      'Stage sandbox: WITHDRAWAL_FEE is not a stage setting (functions/settings/schema.ts)',
    ]);
  });

  it("refuses Solana's local hot wallet key and deposit seed on a deployed stage, and asks for the deposit seed's secret there", () => {
    const solana = { rpcUrlSecret: 'cambio/solana-rpc', usdtMint: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB' };
    const local = { ...solana, localHotWalletKey: 'ab'.repeat(64), localDepositSeed: 'cd'.repeat(64) };
    const problems = (stage: 'local' | 'sandbox' | 'production', network: object) => {
      try {
        checkStageSettings(stage, { ...STAGES[stage].functionEnvironment, SOLANA: JSON.stringify(network) });
        return [];
      } catch (error) {
        return (error as SettingsError).problems;
      }
    };

    expect(problems('production', local)).toEqual([
      'Stage production: SOLANA.localHotWalletKey is for the local stage only',
      'Stage production: SOLANA.localDepositSeed is for the local stage only',
      'Stage production: Missing SOLANA.depositSeedSecret (the sweeper reads the deposit seed from it on a deployed stage)',
    ]);
    expect(problems('sandbox', { ...solana, localDepositSeed: 'cd'.repeat(64), depositSeedSecret: 'cambio/solana-deposit-seed' })).toEqual([
      'Stage sandbox: SOLANA.localDepositSeed is for the local stage only',
    ]);
    expect(problems('sandbox', { ...solana, depositSeedSecret: 'cambio/solana-deposit-seed' })).toEqual([]);
    expect(problems('local', local)).toEqual([]);
  });
});

describe('the hot wallet signer on a deployed stage', () => {
  it('refuses SIGNER=secrets-manager: the stack grants the signing jobs KMS keys, and no stage setting names a secret, so every signature would fail', () => {
    expect(() => checkStageSettings('production', { ...STAGES.production.functionEnvironment, SIGNER: 'secrets-manager' })).toThrow(
      'Stage production: SIGNER=secrets-manager: the stack makes and grants KMS keys for the hot wallets, and names no secret for this signer; use SIGNER=kms',
    );
  });
});

describe("a function's slice", () => {
  it('is what the function parses at cold start: nothing outside it, even when the environment holds more', () => {
    const settings = functionSettings('deposits/create-deposit', { ...createDepositEnv, PRICE_SOURCE: 'static', SIGNER: 'kms' });

    expect(settings).toEqual({
      STAGE: 'sandbox',
      NODE_OPTIONS: undefined,
      TABLE_NAME: 'cambio-sandbox',
      DYNAMODB_ENDPOINT: undefined,
      DEPOSIT_ACCOUNT_XPUB: XPUB,
      DEPOSIT_REQUIRED_CONFIRMATIONS: 19,
      // Unset: no EVM network is open.
      EVM_NETWORKS: {},
      // A split never forwards to it (functions/withdrawals/refused-destinations.ts).
      USDT_CONTRACT: TRON_USDT,
    });
  });

  it('fails the cold start on a missing required value, naming the variable', () => {
    const { DEPOSIT_ACCOUNT_XPUB: _xpub, ...env } = createDepositEnv;

    expect(() => functionSettings('deposits/create-deposit', env)).toThrow('Missing required environment variable DEPOSIT_ACCOUNT_XPUB');
  });

  it('fails the cold start on a bad value, and reports every problem at once', () => {
    expect(() => functionSettings('deposits/create-deposit', { ...createDepositEnv, STAGE: 'staging', DEPOSIT_REQUIRED_CONFIRMATIONS: 'nineteen' })).toThrow(
      'STAGE must be one of local, sandbox, production, got "staging"; DEPOSIT_REQUIRED_CONFIRMATIONS must be a whole number from 1 to 100, got "nineteen"',
    );
  });

  it('reads an empty variable as unset', () => {
    expect(() => functionSettings('deposits/create-deposit', { ...createDepositEnv, TABLE_NAME: '' })).toThrow('Missing required environment variable TABLE_NAME');
  });

  it("gives only the signing jobs the fee cap, only the sweeper the deposit account key, and no API function a chain setting but the dashboard's sandbox simulator", () => {
    const holders = (name: string) => Object.entries(FUNCTION_SETTINGS).filter(([, names]) => (names as readonly string[]).includes(name)).map(([fn]) => fn).sort();

    expect(holders('WITHDRAWAL_FEE_LIMIT_SUN')).toEqual(['jobs/deposit-sweeper', 'jobs/withdrawal-sender']);
    expect(holders('SWEEP_ACCOUNT_XPRV_SECRET')).toEqual(['jobs/deposit-sweeper']);
    // The dashboard's sandbox simulator pays on the sandbox chain (and is refused elsewhere): it reads
    // which chain the stage has, never a key (SIGNER_KMS_KEY_ID below stays with the jobs).
    expect(holders('CHAIN_ADAPTER')).toEqual(['dashboard-simulator/simulate-payment', 'jobs/deposit-poller', 'jobs/deposit-sweeper', 'jobs/reconcile', 'jobs/withdrawal-sender']);
    expect(holders('SIGNER_KMS_KEY_ID')).toEqual(['jobs/deposit-sweeper', 'jobs/reconcile', 'jobs/withdrawal-sender']);
  });
});
