import { relative } from 'node:path';
import { evmNetworkLines } from './evm-networks.ts';
import { solanaNetworkLine } from './solana-runtime.ts';
import type { LocalRuntime } from './runtime.ts';

/** What `npm start` prints once everything is up: where each part listens, each EVM node's and the
 * Solana node's line in the spec's form (../shared/networks.md: its URL, its USDT contract or mint,
 * an EVM token's issuer), and the sandbox company's key. */
export function startBanner(runtime: LocalRuntime): string {
  const { apiKey, apiSecret, companyId } = runtime.sandbox;
  return [
    '',
    'Cambio local runtime is up',
    `  API             ${runtime.apiUrl}`,
    `  Dashboard       ${runtime.dashboardUrl} (sign up for a sandbox company and make API keys there)`,
    `  DynamoDB Local  ${runtime.dynamoEndpoint} (data in .data/, kept across restarts)`,
    `  Mail            ${relative(process.cwd(), runtime.outboxDir)}/ (invitations, password resets, webhook alerts, as .eml files; nothing is sent)`,
    // Each EVM network's anvil node (a block a second, its chain kept in .data/evm/ across restarts).
    ...evmNetworkLines(runtime.evmNetworks),
    // Solana's node in this process (a slot every 400 ms, its chain kept in .data/solana/ across restarts).
    ...(runtime.solana ? [solanaNetworkLine(runtime.solana)] : []),
    `  Pay a deposit   npm run sandbox:pay -- --network <${['tron', ...Object.keys(runtime.evmNetworks), ...(runtime.solana ? ['solana'] : [])].join('|')}> --address <address> --amount <USDT>`,
    // The issuer's controls on the token (freeze, pause, fee, deprecate): tron's, and each EVM network's TetherUsdt (bsc's token has none); Solana's mint is frozen and thawed only.
    `  Token issuer    npm run sandbox:issuer -- <freeze|unfreeze|pause|unpause|fee|deprecate> --network <${['tron', ...Object.entries(runtime.evmNetworks).flatMap(([name, network]) => (network?.tokenControls === 'none' ? [] : [name]))].join('|')}> …`,
    ...(runtime.solana ? ['                  npm run sandbox:issuer -- <freeze|unfreeze> --network solana --address <address>'] : []),
    '',
    `  Sandbox company ${companyId}${runtime.seeded ? ' (created now)' : ''}`,
    `    X-Api-Key     ${apiKey}`,
    `    X-Api-Secret  ${apiSecret}`,
    '',
    '  Try it:',
    `    curl -s ${runtime.apiUrl}/company/balance -H 'X-Api-Key: ${apiKey}' -H 'X-Api-Secret: ${apiSecret}'`,
    '',
    '  Another company: npm run company:create -- --name "Acme" --json',
    '  Ctrl-C stops everything.',
    '',
  ].join('\n');
}
