/**
 * A file downloaded over HTTP(S) as a stream of bytes, read as it arrives (OFAC's sdn_advanced.xml
 * is about 100 MB: never held whole). A non-2xx answer, a network error or a download that takes
 * longer than `timeoutMs` in all throws; a body cut short surfaces as the reader's error.
 */
export async function downloadStream(url: string, options: { timeoutMs: number; userAgent: string; fetchImpl?: typeof fetch }): Promise<AsyncIterable<Uint8Array>> {
  const response = await (options.fetchImpl ?? fetch)(url, { headers: { 'User-Agent': options.userAgent }, signal: AbortSignal.timeout(options.timeoutMs) });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new Error(`GET ${url} answered ${response.status} ${response.statusText}`.trim());
  }
  return response.body;
}
