// The SDK warns that releases after January 2027 need Node 22; package-lock pins today's release,
// and Lambda runs Node 22 anyway (see README, "Node version").
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { CognitoStateUnreadable } from './cognito-emulator.ts';
import { DataFolderInUse, dataFolderHolder } from './data-folder.ts';
import { JavaMissingError } from './dynamodb-local.ts';
import { SavedChainUnusable } from './evm-chain-state.ts';
import { SavedSolanaChainUnusable } from './solana-chain-state.ts';
import { startLocalRuntime } from './runtime.ts';
import { startBanner } from './start-banner.ts';
import { EVM_NETWORK_NAMES } from '#functions/networks/evm/settings';
import { buildDashboard, dashboardBuildIsStale } from '../dashboard/build.ts';

/** `npm start`: the whole service on this machine. */
const port = Number(process.env.PORT ?? 3000);
const DATA_DIR = '.data';

try {
  // Told at once, before a dashboard build the running one serves from; startLocalRuntime takes the folder.
  const holder = dataFolderHolder(DATA_DIR);
  if (holder) throw new DataFolderInUse(DATA_DIR, holder);
  // The dashboard app is built on the first start and again whenever its sources changed.
  if (dashboardBuildIsStale()) {
    const built = buildDashboard();
    console.log(`Built the dashboard app (dashboard/dist/${built.scriptFile})`);
  }
  const runtime = await startLocalRuntime({ dataDir: DATA_DIR, port, evmNetworks: EVM_NETWORK_NAMES, solana: true });
  console.log(startBanner(runtime));
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping…');
    await runtime.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (error) {
  if (error instanceof DataFolderInUse || error instanceof CognitoStateUnreadable || error instanceof JavaMissingError || error instanceof SavedChainUnusable || error instanceof SavedSolanaChainUnusable) {
    console.error(error.message);
  } else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    // Not a runtime on .data/ (that one is refused above, by its lock): another program, or a runtime
    // on another data folder, which another port keeps apart.
    console.error(`Port ${port} is in use by another program (no Cambio runtime runs on ${DATA_DIR}/): stop it, or start on another port: PORT=${port + 1} npm start`);
  } else {
    console.error('The local runtime failed to start:', error);
  }
  process.exit(1);
}
