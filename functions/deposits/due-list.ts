/**
 * The sweep-due list as every family's sweeper reads it: a page at a time, on the list's own `next`
 * (a page can come back short while more follow: an address with a payment still confirming is left
 * out of it), and no more than DUE_PAGES_PER_RUN pages a run.
 */

/** Pages of the due list a run reads at most: what a run costs when the front of the list cannot move. */
export const DUE_PAGES_PER_RUN = 10;

/** A family's due list, as its sweep store pages it. */
export interface DueList<Due> {
  dueAddresses(limit: number, after?: string): Promise<{ due: Due[]; next: string | null }>;
}

/** The list's pages of `pageSize`, from its front, while `more()` says the run wants more. */
export async function* duePages<Due>(list: DueList<Due>, pageSize: number, more: () => boolean): AsyncGenerator<Due[]> {
  let after: string | undefined;
  for (let page = 0; page < DUE_PAGES_PER_RUN && more(); page++) {
    const { due, next } = await list.dueAddresses(pageSize, after);
    yield due;
    if (next === null) return;
    after = next;
  }
}
