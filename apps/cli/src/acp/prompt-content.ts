// An ACP prompt (content blocks) as one of our send requests: text as is, resource links as
// references the model can read, embedded resources inline, images as attachments.
import { fileURLToPath } from 'node:url';
import type { SendRequest } from '@a3s-lab/code';
import { RequestError } from '@agentclientprotocol/sdk';
import type { ContentBlock } from '@agentclientprotocol/sdk';

type Attachments = NonNullable<SendRequest['attachments']>;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** A `file://` URI as a path; any other URI unchanged. */
const shownUri = (uri: string): string => {
  if (!uri.startsWith('file://')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
};

/**
 * The send request of a `session/prompt`. Audio and binary resources other than images are
 * refused (invalid params): the agent does not advertise them and would not act on them.
 */
export function promptRequest(blocks: readonly ContentBlock[]): SendRequest {
  const parts: string[] = [];
  const attachments: Attachments[number][] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'resource_link': {
        const title = block.title ?? block.name;
        parts.push(`[${title}](${shownUri(block.uri)})${block.description ? ` — ${block.description}` : ''}`);
        break;
      }
      case 'resource': {
        const resource = block.resource;
        if ('text' in resource) {
          parts.push(`<resource uri="${shownUri(resource.uri)}"${resource.mimeType ? ` mimeType="${resource.mimeType}"` : ''}>\n${resource.text}\n</resource>`);
        } else if (resource.mimeType !== undefined && resource.mimeType !== null && IMAGE_TYPES.has(resource.mimeType)) {
          attachments.push({ data: resource.blob, mediaType: resource.mimeType });
        } else {
          throw RequestError.invalidParams({ uri: resource.uri, mimeType: resource.mimeType ?? null }, `binary resource ${resource.uri} is not supported (only text resources and images)`);
        }
        break;
      }
      case 'image':
        if (!IMAGE_TYPES.has(block.mimeType)) throw RequestError.invalidParams({ mimeType: block.mimeType }, `image type ${block.mimeType} is not supported (png, jpeg, gif, webp)`);
        attachments.push({ data: block.data, mediaType: block.mimeType });
        break;
      case 'audio':
        throw RequestError.invalidParams({ type: 'audio' }, 'audio prompts are not supported (promptCapabilities.audio is false)');
      default:
        throw RequestError.invalidParams({ type: (block as { type?: unknown }).type }, 'unknown content block type');
    }
  }
  const prompt = parts.join('\n\n').trim();
  if (prompt.length === 0 && attachments.length === 0) throw RequestError.invalidParams(undefined, 'the prompt is empty');
  return { prompt: prompt.length === 0 ? 'See the attached image.' : prompt, ...(attachments.length === 0 ? {} : { attachments }) };
}
