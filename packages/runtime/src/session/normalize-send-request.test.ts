import { describe, expect, it } from 'vitest';
import { CodeError } from '@a3s-lab/code-core';
import { normalizeSendRequest, toUserMessage } from './normalize-send-request.js';

const fieldOf = (request: unknown): unknown => {
  try {
    normalizeSendRequest(request);
  } catch (error) {
    if (CodeError.hasCode(error, 'SESSION_ERROR') || CodeError.hasCode(error, 'SESSION_CONFIGURATION_ERROR')) return error.details['field'];
    throw error;
  }
  return 'accepted';
};

describe('normalizeSendRequest', () => {
  it('accepts a prompt string or the object form', () => {
    expect(normalizeSendRequest('hi')).toEqual({ prompt: 'hi' });
    const request = { prompt: 'p', history: [], attachments: [{ data: 'aGk=', mediaType: 'image/png' }] };
    expect(normalizeSendRequest(request)).toEqual(request);
  });

  it('accepts {role, content: string} history entries and refuses a malformed history before anything runs', () => {
    expect(normalizeSendRequest({ prompt: 'p', history: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'yo' }] }] }).history).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'yo' }] },
    ]);
    expect(() => normalizeSendRequest({ prompt: 'p', history: [{ role: 'user', content: 5 }] })).toThrow(expect.objectContaining({ code: 'SESSION_CONFIGURATION_ERROR', details: expect.objectContaining({ field: 'history[0].content' }) }));
    expect(() => normalizeSendRequest({ prompt: 'p', history: [{ role: 'robot', content: 'x' }] })).toThrow(expect.objectContaining({ code: 'SESSION_CONFIGURATION_ERROR', details: expect.objectContaining({ field: 'history[0].role' }) }));
  });

  it.each([
    [null, 'request'],
    [42, 'request'],
    [{}, 'prompt'],
    [{ prompt: 1 }, 'prompt'],
    [{ prompt: 'p', history: {} }, 'history'],
    [{ prompt: 'p', attachments: 'x' }, 'attachments'],
    [{ prompt: 'p', attachments: [null] }, 'attachments[0].mediaType'],
    [{ prompt: 'p', attachments: [{ data: 'x', mediaType: 'application/pdf' }] }, 'attachments[0].mediaType'],
    [{ prompt: 'p', attachments: [{ data: 'aGk=', mediaType: 'image/png' }, { data: 5, mediaType: 'image/jpeg' }] }, 'attachments[1].data'],
  ])('rejects %j naming %s', (request, field) => {
    expect(fieldOf(request)).toBe(field);
  });
});

describe('toUserMessage', () => {
  it('puts images before the prompt text and base64-encodes bytes', () => {
    const message = toUserMessage({ prompt: 'what is this?', attachments: [{ data: new Uint8Array([1, 2, 3]), mediaType: 'image/png' }, { data: 'AAAA', mediaType: 'image/gif' }] });
    expect(message).toEqual({
      role: 'user',
      content: [
        { type: 'image', mediaType: 'image/png', data: 'AQID' },
        { type: 'image', mediaType: 'image/gif', data: 'AAAA' },
        { type: 'text', text: 'what is this?' },
      ],
    });
    expect(toUserMessage({ prompt: 'plain' })).toEqual({ role: 'user', content: [{ type: 'text', text: 'plain' }] });
  });
});
