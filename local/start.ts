// The SDK warns that releases after January 2027 need Node 22; package-lock pins today's release,
// and Lambda runs Node 22 anyway (see README, "Node version").
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { JavaMissingError } from './dynamodb-local.ts';
import { SavedChainUnusable } from './evm-chain-state.ts';
import { SavedSolanaChainUnusable } from './solana-chain-state.ts';
import { startLocalRuntime } from './runtime.ts';
import { startBanner } from './start-banner.ts';
import { EVM_NETWORK_NAMES } from '#functions/networks/evm/settings';
import { buildDashboard, dashboardBuildIsStale } from '../dashboard/build.ts';

/** `npm start`: the whole service on this machine. */
const port = Number(process.env.PORT ?? 3000);

try {
  // The dashboard app is built on the first start and again whenever its sources changed.
  if (dashboardBuildIsStale()) {
    const built = buildDashboard();
    console.log(`Built the dashboard app (dashboard/dist/${built.scriptFile})`);
  }
  const runtime = await startLocalRuntime({ dataDir: '.data', port, evmNetworks: EVM_NETWORK_NAMES, solana: true });
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
  if (error instanceof JavaMissingError || error instanceof SavedChainUnusable || error instanceof SavedSolanaChainUnusable) {
    console.error(error.message);
  } else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Port ${port} is in use: stop what holds it, or run PORT=3001 npm start`);
  } else {
    console.error('The local runtime failed to start:', error);
  }
  process.exit(1);
}
