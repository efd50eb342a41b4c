import { createSocket, type Socket } from 'node:dgram';
import { pbkdf2 } from 'node:crypto';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsResolver } from '#adapters/webhooks/dns-resolver';

/**
 * The webhook sender's resolver against name servers on loopback: one that never answers (a
 * company's slow or dead DNS) and one that answers A queries with 192.0.2.10 and nothing else.
 */
const sockets: Socket[] = [];
let silent = '';
let answering = '';

async function nameServer(answer: boolean): Promise<string> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  socket.on('message', (query, peer) => {
    if (!answer) return;
    // The question ends at its name's zero byte, then 2 bytes of type and 2 of class.
    let end = 12;
    while (query[end] !== 0) end += query[end]! + 1;
    const question = query.subarray(12, end + 5);
    const isA = query.readUInt16BE(end + 1) === 1;
    const header = Buffer.from(query.subarray(0, 12));
    header.writeUInt16BE(0x8180, 2); // a response, recursion available, no error
    header.writeUInt16BE(isA ? 1 : 0, 6);
    header.writeUInt32BE(0, 8);
    const record = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 192, 0, 2, 10]);
    socket.send(Buffer.concat([header, question, ...(isA ? [record] : [])]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(socket.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  [silent, answering] = await Promise.all([nameServer(false), nameServer(true)]);
});

afterAll(() => {
  for (const socket of sockets) socket.close();
});

describe('the webhook sender\'s DNS resolver', () => {
  it('gives the addresses a name server answers', async () => {
    expect(await dnsResolver([answering])('hooks.example.com')).toEqual([{ address: '192.0.2.10', family: 4 }]);
  });

  it('answers localhost names as loopback without asking DNS', async () => {
    expect(await dnsResolver([silent])('localhost')).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
  });

  it('gives up on silent name servers within its time, while they hold no thread another company\'s work needs', async () => {
    const started = Date.now();
    // Twelve names behind a silent name server, as a batch of one company's deliveries would ask.
    const held = Array.from({ length: 12 }, (_, n) => dnsResolver([silent])(`slow-${n}.example.com`).then(
      () => 'resolved',
      (error: Error) => error.message,
    ));
    // Meanwhile another company's name resolves, and work on libuv's thread pool finishes at once.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const others = Date.now();
    expect(await dnsResolver([answering])('other.example.com')).toEqual([{ address: '192.0.2.10', family: 4 }]);
    await promisify(pbkdf2)('password', 'salt', 1, 32, 'sha256');
    expect(Date.now() - others).toBeLessThan(1_000);

    // c-ares' own timeout, or the resolver's cancel at 5 s, whichever comes first.
    expect(await Promise.all(held)).toEqual(Array.from({ length: 12 }, (_, n) => expect.stringMatching(new RegExp(`^resolving slow-${n}\\.example\\.com: E(CANCELLED|TIMEOUT)$`))));
    expect(Date.now() - started).toBeLessThan(7_000);
  }, 15_000);
});
