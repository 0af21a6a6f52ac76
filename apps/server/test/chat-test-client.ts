// The AI SDK's own client for the chat tests: `DefaultChatTransport` against the server, and a
// minimal `AbstractChat` (the class `useChat` wraps) with an in-memory state.
import { AbstractChat, DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import type { ChatState, ChatStatus, UIMessage } from 'ai';
import { TEST_TOKEN } from './server-harness.js';

class MemoryChatState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage): void => {
    this.messages = [...this.messages, message];
  };
  popMessage = (): void => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage): void => {
    this.messages = this.messages.map((m, i) => (i === index ? message : m));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** `useChat` without React: answers approvals with its next request (`lastAssistantMessageIsCompleteWithApprovalResponses`). */
export class TestChat extends AbstractChat<UIMessage> {
  constructor(options: { readonly id: string; readonly transport: DefaultChatTransport<UIMessage> }) {
    super({ id: options.id, transport: options.transport, state: new MemoryChatState(), sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
  }
}

/** The transport a web front end would configure: chat api of the session, bearer token, only the last message sent. */
export function chatTransport(baseUrl: string, sessionId: string, fetchImpl?: typeof fetch): DefaultChatTransport<UIMessage> {
  return new DefaultChatTransport<UIMessage>({
    api: `${baseUrl}/api/sessions/${sessionId}/chat`,
    headers: { authorization: `Bearer ${TEST_TOKEN}` },
    ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }),
  });
}
