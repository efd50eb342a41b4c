import { describe, expect, it } from 'vitest';
import { explorerUrl, NETWORK_OPTIONS, networkTitle } from '../../dashboard/src/activity/tabs.ts';
import { NETWORK_DISPLAY } from '../../functions/networks/display.ts';
import { NETWORK_NAMES } from '../../functions/networks/names.ts';

/**
 * The dashboard names the networks from the registry's lists (functions/networks/names.ts,
 * display.ts), never from a list of its own: a network added there is in Activity's Network
 * filter, titled on every record, and linked to its explorer, with no page edited.
 */
describe("the dashboard's networks", () => {
  it("Activity's Network filter offers every registered network, in the registry's order, by title", () => {
    expect(NETWORK_OPTIONS.map((option) => option.name)).toEqual([...NETWORK_NAMES]);
    expect(NETWORK_OPTIONS.find((option) => option.name === 'solana')).toEqual({ name: 'solana', title: 'Solana' });
  });

  it("titles a record's network, and shows a name the app does not know yet as sent", () => {
    for (const name of NETWORK_NAMES) expect(networkTitle(name)).toBe(NETWORK_DISPLAY[name].title);
    expect(networkTitle('dogecoin')).toBe('dogecoin');
    expect(networkTitle(undefined)).toBe('—');
  });

  it("links a transaction to its network's explorer: a Solana signature to Solscan", () => {
    const signature = '4fEUp7Zfx1DabEhfjTffrP21NsHSvE1xAoiUWUkTXxbKC2Q2EZE1QMCc9QZQzvibS8tUfTacRNw6UFN3jFMfh5uQ';
    expect(explorerUrl('solana', signature)).toBe(`https://solscan.io/tx/${signature}`);
    expect(explorerUrl('tron', 'ab12')).toBe('https://tronscan.org/#/transaction/ab12');
    expect(explorerUrl('dogecoin', 'ab12')).toBeNull();
  });
});
