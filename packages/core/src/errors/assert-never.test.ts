import { describe, expect, it } from 'vitest';
import type { LlmStreamEvent } from '../llm/llm-client.js';
import { assertNever } from './assert-never.js';

describe('assertNever', () => {
  it('names what reached it: an INTERNAL_ERROR, never a silent drop', () => {
    const unknown = JSON.parse('{"type":"citation_delta"}') as never;
    expect(() => assertNever(unknown, 'model stream event')).toThrow(expect.objectContaining({ code: 'INTERNAL_ERROR', message: 'unhandled model stream event: citation_delta' }));
  });

  it('compiles only when every variant is handled', () => {
    const kind = (event: LlmStreamEvent): string => {
      switch (event.type) {
        case 'attempt_start':
        case 'text_delta':
        case 'reasoning_delta':
        case 'tool_call_start':
        case 'tool_call_delta':
        case 'tool_call_end':
        case 'message_end':
          return event.type;
        default:
          return assertNever(event, 'model stream event');
      }
    };
    expect(kind({ type: 'text_delta', text: 'x' })).toBe('text_delta');
  });
});
