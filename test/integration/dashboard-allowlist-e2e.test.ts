import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { dashboardBrowser, invitedMember, signedUpOwner, STRONG_PASSWORD } from '../support/dashboard.ts';
import { accessibilityProblems, navLink, screenshot, signInThroughPage, useDashboardChromium } from '../support/dashboard-chromium.ts';
import { apiClient } from '../support/local-api.ts';
import { creditAvailable } from '../support/money.ts';
import { mailsTo } from '../support/outbox.ts';

/**
 * Integrations → `Withdrawal addresses` as a person uses it, in headless Chromium through its visible
 * names, against the local runtime (its waiting period is 0): an Owner turns the allowlist on, adds
 * an address (a wrong one first: the API's field error in the dialog), removes it and turns the
 * list off, each confirmed where it widens or removes; after each step /v1 shows the change took
 * effect (a withdrawal to another address 422 ADDRESS_NOT_ALLOWED, to the listed one 201). A
 * Developer, who holds the API keys, sees the section without its buttons. axe-core on each view.
 */
const env = useDashboardChromium();

const payout = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_301);
const stranger = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_302);

const nav = (name: string) => navLink(env.page, name);
const section = () => env.page.getByRole('region', { name: 'Withdrawal addresses' });
const addressTable = () => env.page.getByRole('table', { name: 'Withdrawal addresses' });
const status = () => section().getByRole('status');
const button = (name: string) => env.page.getByRole('button', { name, exact: true });

async function signOut(): Promise<void> {
  await button('Sign out').click();
  await env.page.getByRole('heading', { name: 'Sign in to Cambio' }).waitFor();
}

describe('Withdrawal addresses in headless Chromium', () => {
  let owner: Awaited<ReturnType<typeof signedUpOwner>>;
  let v1: ReturnType<typeof apiClient>;
  /** A /v1 withdrawal of 10 USDT to `address`: its status and error code. */
  const withdraw = async (reference: string, address: string) => {
    const answer = await v1('POST', '/withdrawals', { body: { method: 'usdt', network: 'tron', address, amount: '10', reference } });
    return { status: answer.status, code: answer.body.error?.code as string | undefined, address: answer.body.data?.address as string | undefined };
  };

  beforeAll(async () => {
    owner = await signedUpOwner(env.chromium.runtime, 'Allowlist Payments');
    const { apiKey, apiSecret } = (await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Payouts', password: STRONG_PASSWORD } })).body.data;
    v1 = apiClient(env.chromium.runtime, { apiKey, apiSecret });
    await creditAvailable(env.db, env.chromium.runtime.tableName, owner.companyId, 'USDT', '100');
  });

  it('shows a new company’s Owner the allowlist off and no address, and /v1 sends anywhere', async () => {
    await signInThroughPage(env.chromium, owner.email);
    await nav('Integrations').click();
    await env.page.getByRole('heading', { name: 'Withdrawal addresses', level: 2 }).waitFor();
    await expect.poll(() => status().innerText()).toBe('Allowlist off');
    await section().getByText('No address yet.').waitFor();
    expect(await addressTable().count()).toBe(0);
    const text = await section().innerText();
    expect(text).toContain('withdrawals and deposit splits may go only to these addresses');
    expect(text).toContain('becomes usable at once');
    expect(text).toContain('Owners and Admins are emailed each address added and each turn-off');
    expect(await button('Turn on allowlist').count()).toBe(1);
    expect(await button('Turn off allowlist').count()).toBe(0);
    expect(await button('Add address').count()).toBe(1);
    expect(await accessibilityProblems(env.page)).toEqual([]);
    expect(await withdraw('before-on', stranger)).toMatchObject({ status: 201, address: stranger });
  });

  it('turns the allowlist on: /v1 then refuses a withdrawal to any address', async () => {
    await button('Turn on allowlist').click();
    await expect.poll(() => status().innerText()).toBe('Allowlist on');
    expect(await button('Turn on allowlist').count()).toBe(0);
    expect(await button('Turn off allowlist').count()).toBe(1);
    expect(await withdraw('on-stranger', stranger)).toMatchObject({ status: 422, code: 'ADDRESS_NOT_ALLOWED' });
    expect(await withdraw('on-payout', payout)).toMatchObject({ status: 422, code: 'ADDRESS_NOT_ALLOWED' });
    // Still on after a reload: the page showed what the API holds.
    await env.page.reload();
    await expect.poll(() => status().innerText()).toBe('Allowlist on');
  });

  it('shows the API’s field error for a wrong address in the dialog, then adds the address: listed, mailed, and accepted by /v1', async () => {
    await button('Add address').click();
    const dialog = env.page.getByRole('dialog', { name: 'Add address' });
    await dialog.getByLabel('Label').fill('Treasury');
    await dialog.getByLabel('Address').fill('TNotATronAddress0000000000000000000');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    expect(await dialog.getByLabel('Network').inputValue()).toBe('tron');
    await expect.poll(() => dialog.getByRole('alert').innerText()).toContain('Address must be an address of TRON (base58check, starting with T)');
    expect(await accessibilityProblems(env.page)).toEqual([]);
    await section().getByText('No address yet.').waitFor({ state: 'attached' });

    await dialog.getByLabel('Address').fill(payout);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => env.page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => addressTable().count()).toBe(1);
    const headers = await addressTable().getByRole('columnheader').allInnerTexts();
    expect(headers).toEqual(['Label', 'Network', 'Address', 'Added by', 'Added', 'Usable from', 'Actions']);
    const row = addressTable().getByRole('row', { name: /Treasury/ });
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(await row.getByRole('rowheader').innerText()).toBe('Treasury');
    expect(cells.slice(0, 3)).toEqual(['TRON', payout, owner.email]);
    expect(cells[4]).toBe(cells[3]); // usable from when it was added: no waiting period here
    expect(await section().getByText('No address yet.').count()).toBe(0);
    expect(mailsTo(env.chromium.runtime.outboxDir, owner.email).map((mail) => mail.subject)).toContain('Withdrawal address added to Allowlist Payments');

    expect(await withdraw('to-stranger', stranger)).toMatchObject({ status: 422, code: 'ADDRESS_NOT_ALLOWED' });
    expect(await withdraw('to-payout', payout)).toMatchObject({ status: 201, address: payout });
    expect(await accessibilityProblems(env.page)).toEqual([]);
    await section().scrollIntoViewIfNeeded();
    await screenshot(env.page, 'integrations-withdrawal-addresses');
  });

  it('removes the address once confirmed: the empty state again, and /v1 refuses it', async () => {
    await addressTable().getByRole('row', { name: /Treasury/ }).getByRole('button', { name: 'Remove' }).click();
    const dialog = env.page.getByRole('dialog', { name: 'Remove Treasury?' });
    expect(await dialog.innerText()).toContain(payout);
    expect(await accessibilityProblems(env.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await section().getByText('No address yet.').waitFor();
    expect(await addressTable().count()).toBe(0);
    expect(await withdraw('after-removal', payout)).toMatchObject({ status: 422, code: 'ADDRESS_NOT_ALLOWED' });
  });

  it('turns the allowlist off once confirmed: /v1 sends anywhere again; the audit log tells each change', async () => {
    await button('Turn off allowlist').click();
    const dialog = env.page.getByRole('dialog', { name: 'Turn off the withdrawal allowlist?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await status().innerText()).toBe('Allowlist on');
    expect(await withdraw('cancelled-off', stranger)).toMatchObject({ status: 422, code: 'ADDRESS_NOT_ALLOWED' });

    await button('Turn off allowlist').click();
    expect(await accessibilityProblems(env.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Turn off allowlist' }).click();
    await expect.poll(() => status().innerText()).toBe('Allowlist off');
    expect(await env.page.getByRole('dialog').count()).toBe(0);
    expect(await button('Turn on allowlist').count()).toBe(1);
    expect(await withdraw('after-off', stranger)).toMatchObject({ status: 201, address: stranger });

    await nav('Audit log').click();
    await expect.poll(() => env.page.getByRole('table').innerText()).toContain('Turned off the withdrawal allowlist');
    const audit = await env.page.getByRole('table').innerText();
    for (const action of ['Turned on the withdrawal allowlist', 'Added withdrawal address (Treasury', 'Removed withdrawal address']) expect(audit).toContain(action);
    await signOut();
  });

  it('shows a Developer, who holds the API keys, the list without a button to change it', async () => {
    // The Owner signed out on the page above, which ends every session of theirs at once: signed in afresh to invite.
    const inviter = dashboardBrowser(env.chromium.runtime);
    expect((await inviter.call('POST', '/session', { body: { email: owner.email, password: STRONG_PASSWORD } })).body).toMatchObject({ success: true });
    const { email } = await invitedMember(env.chromium.runtime, inviter, owner.companyId, 'Developer');
    const allowlist = (method: string, path: string, body: unknown) => inviter.call(method, `/companies/${owner.companyId}/withdrawal-allowlist${path}`, { body });
    expect((await allowlist('PUT', '', { enabled: true })).status).toBe(200);
    expect((await allowlist('POST', '/addresses', { network: 'tron', address: payout, label: 'Ops wallet' })).status).toBe(201);

    await signInThroughPage(env.chromium, email);
    expect(await env.page.getByRole('banner').innerText()).toContain(`${email} · Developer`);
    await nav('Integrations').click();
    await expect.poll(() => addressTable().count()).toBe(1);
    expect(await addressTable().getByRole('row', { name: /Ops wallet/ }).innerText()).toContain(payout);
    expect(await addressTable().getByRole('columnheader').allInnerTexts()).toEqual(['Label', 'Network', 'Address', 'Added by', 'Added', 'Usable from']);
    expect(await status().innerText()).toBe('Allowlist on');
    expect(await section().innerText()).toContain('Only Owners and Admins may change this list.');
    for (const name of ['Turn on allowlist', 'Turn off allowlist', 'Keep allowlist on', 'Add address']) expect(await button(name).count(), name).toBe(0);
    expect(await section().getByRole('button').count()).toBe(0);
    // A Developer still manages the keys on the same page.
    expect(await button('Create API key').count()).toBe(1);
    expect(await accessibilityProblems(env.page)).toEqual([]);
    await signOut();
  });
});

describe('this file', () => {
  it('asked nothing of any machine but this one', () => {
    expect(env.chromium.offMachine).toEqual([]);
  });
});
