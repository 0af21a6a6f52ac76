import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { requestSentSignal } from './request-sent-signal.js';

// While `hold` is set, the server answers only when the test releases it: "sent" must be told
// while the response is still pending, as a model call waits for its model.
let hold = false;
let release: (() => void) | undefined;
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    if (hold) release = () => response.end('ok');
    else response.end('ok');
  });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/messages`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const held = (): Promise<void> =>
  new Promise<void>((resolve) => {
    const check = (): void => (release === undefined ? void setImmediate(check) : resolve());
    check();
  });

describe('requestSentSignal', () => {
  it('tells once the body of a fetch is on the wire, before its response arrives, and only once', async () => {
    let calls = 0;
    let told!: () => void;
    const toldOnce = new Promise<void>((resolve) => (told = resolve));
    requestSentSignal(() => {
      calls += 1;
      told();
    });
    hold = true;
    const response = fetch(url, { method: 'POST', body: JSON.stringify({ messages: ['x'.repeat(50_000)] }) });
    // Told while the server still holds the response (were it told only after, this would hang).
    await toldOnce;
    await held();
    release?.();
    expect(await (await response).text()).toBe('ok');
    hold = false;
    release = undefined;
    expect(await (await fetch(url, { method: 'POST', body: '{}' })).text()).toBe('ok');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(1);
  });

  it('a cancelled signal never tells', async () => {
    let calls = 0;
    const cancel = requestSentSignal(() => void (calls += 1));
    cancel();
    cancel();
    expect(await (await fetch(url, { method: 'POST', body: '{}' })).text()).toBe('ok');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(0);
  });
});
