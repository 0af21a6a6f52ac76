import { describe, expect, it } from 'vitest';
import { CodeError } from '../errors/code-error.js';
import { ArtifactStore } from './artifact-store.js';
import { boundUtf8HeadTail, utf8ByteLength } from './utf8.js';

describe('ArtifactStore', () => {
  it('stores, lists and gets artifacts under a3s://tool-output/<tool>/<id>', () => {
    const store = new ArtifactStore();
    const ref = store.put('read', 'hello', { id: 'call_1' });
    expect(ref).toEqual({ uri: 'a3s://tool-output/read/call_1', id: 'call_1', bytes: 5 });
    expect(store.get(ref.uri)).toMatchObject({ tool: 'read', content: 'hello', mediaType: 'text/plain', bytes: 5 });
    const again = store.put('read', 'second', { id: 'call_1' });
    expect(again.uri).toBe('a3s://tool-output/read/call_1-2');
    expect(store.put('bash', 'x').uri).toMatch(/^a3s:\/\/tool-output\/bash\/[a-z0-9]+$/);
    expect(store.list().map((a) => a.content)).toEqual(['hello', 'second', 'x']);
    expect(store.get('a3s://tool-output/read/nope')).toBeNull();
  });

  it('keeps a suffixed id within the id limit, so the snapshot restores', () => {
    const store = new ArtifactStore();
    const id = 'c'.repeat(128);
    store.put('read', 'one', { id });
    const second = store.put('read', 'two', { id });
    expect(second.id.length).toBeLessThanOrEqual(128);
    expect(second.uri).not.toBe(ArtifactStore.uriFor('read', id));
    const restored = new ArtifactStore();
    restored.restore(store.snapshot());
    expect(restored.list().map((a) => a.content)).toEqual(['one', 'two']);
  });

  it('counts an artifact listed twice in a snapshot once', () => {
    const store = new ArtifactStore();
    store.put('read', 'abcd', { id: 'x' });
    const snapshot = store.snapshot();
    const restored = new ArtifactStore({ maxBytes: 6 });
    restored.restore({ version: 1, artifacts: [...snapshot.artifacts, ...snapshot.artifacts] });
    expect(restored.size).toBe(1);
    expect(restored.totalBytes).toBe(4);
    restored.put('read', 'ef');
    expect(restored.size).toBe(2);
  });

  it('evicts oldest first by count', () => {
    const store = new ArtifactStore({ maxArtifacts: 2 });
    const a = store.put('t', 'a');
    const b = store.put('t', 'b');
    const c = store.put('t', 'c');
    expect(store.get(a.uri)).toBeNull();
    expect(store.list().map((x) => x.uri)).toEqual([b.uri, c.uri]);
  });

  it('evicts oldest first by bytes (UTF-8)', () => {
    const store = new ArtifactStore({ maxBytes: 10 });
    const a = store.put('t', 'aaaa');
    const b = store.put('t', 'ééé'); // 6 bytes
    expect(store.totalBytes).toBe(10);
    const c = store.put('t', 'c');
    expect(store.get(a.uri)).toBeNull();
    expect(store.get(b.uri)).not.toBeNull();
    expect(store.get(c.uri)).not.toBeNull();
    expect(store.totalBytes).toBe(7);
  });

  it('refuses an artifact larger than the whole store and changes nothing', () => {
    const store = new ArtifactStore({ maxBytes: 4 });
    const kept = store.put('t', 'abcd');
    let error: unknown;
    try {
      store.put('t', 'abcde');
    } catch (e) {
      error = e;
    }
    expect(CodeError.hasCode(error, 'IO_ERROR')).toBe(true);
    expect((error as CodeError).details).toMatchObject({ limit: 'maxBytes', maxBytes: 4, bytes: 5 });
    expect(store.list().map((a) => a.uri)).toEqual([kept.uri]);
  });

  it('putBounded keeps an oversized artifact as a marked head+tail copy (truncated, originalBytes) that survives a snapshot', () => {
    const store = new ArtifactStore({ maxBytes: 100 });
    const fits = store.putBounded('t', 'small');
    expect(fits.truncated).toBeUndefined();
    expect(store.get(fits.uri)?.truncated).toBeUndefined();
    const cut = store.putBounded('t', `${'a'.repeat(300)}${'z'.repeat(300)}`);
    expect(cut).toMatchObject({ truncated: true, originalBytes: 600 });
    const artifact = store.get(cut.uri)!;
    expect(artifact).toMatchObject({ truncated: true, originalBytes: 600 });
    expect(artifact.bytes).toBeLessThanOrEqual(100);
    expect(artifact.content.startsWith('a')).toBe(true);
    expect(artifact.content.endsWith('z')).toBe(true);
    expect(artifact.content).toContain('omitted');
    const restored = new ArtifactStore({ maxBytes: 100 });
    restored.restore(JSON.parse(JSON.stringify(store.snapshot())));
    expect(restored.get(cut.uri)).toMatchObject({ truncated: true, originalBytes: 600 });
    expect(() => restored.restore({ version: 1, artifacts: [{ ...artifact, originalBytes: 'x' } as never] })).toThrow(/originalBytes/);
  });

  it('validates limits and names', () => {
    expect(() => new ArtifactStore({ maxArtifacts: 0 })).toThrow(/maxArtifacts/);
    expect(() => new ArtifactStore().put('bad/tool', 'x')).toThrow(CodeError);
  });

  it('snapshots and restores plain data, refusing malformed snapshots', () => {
    const store = new ArtifactStore();
    store.put('read', 'one', { id: 'a' });
    store.put('read', 'two', { id: 'b' });
    const snapshot = JSON.parse(JSON.stringify(store.snapshot()));
    const copy = new ArtifactStore({ maxArtifacts: 1 });
    copy.restore(snapshot);
    expect(copy.list().map((a) => a.content)).toEqual(['two']);
    expect(() => copy.restore({ version: 2, artifacts: [] } as never)).toThrow(/unsupported version/);
    expect(() => copy.restore({ version: 1, artifacts: [{ ...snapshot.artifacts[0], uri: 'a3s://tool-output/x/y' }] })).toThrow(/uri/);
    expect(copy.list().map((a) => a.content)).toEqual(['two']);
  });
});

describe('boundUtf8HeadTail', () => {
  it('keeps short text as is', () => {
    expect(boundUtf8HeadTail('abc', 100)).toEqual({ text: 'abc', totalBytes: 3, omittedBytes: 0, truncated: false });
  });

  it.each([
    ['ascii', 'x'.repeat(5000)],
    ['multi-byte', 'é漢😀a'.repeat(700)],
  ])('keeps head and tail with exact accounting (%s)', (_name, text) => {
    const max = 512;
    const bounded = boundUtf8HeadTail(text, max);
    expect(bounded.truncated).toBe(true);
    expect(utf8ByteLength(bounded.text)).toBeLessThanOrEqual(max);
    const match = /^([\s\S]*)\n\[\.\.\. (\d+) bytes omitted \.\.\.\]\n([\s\S]*)$/.exec(bounded.text);
    expect(match).not.toBeNull();
    const [, head, omitted, tail] = match!;
    expect(Number(omitted)).toBe(bounded.omittedBytes);
    expect(utf8ByteLength(head!) + utf8ByteLength(tail!) + bounded.omittedBytes).toBe(utf8ByteLength(text));
    expect(text.startsWith(head!)).toBe(true);
    expect(text.endsWith(tail!)).toBe(true);
    expect(head!.length).toBeGreaterThan(0);
    expect(tail!.length).toBeGreaterThan(0);
  });
});
