import type { AclBlock, AclBody, AclDocument } from './acl-document.js';

/**
 * Overlays `overlay` on `base`: an attribute of the overlay replaces the base's attribute of the
 * same name; a block with the same type and labels is merged recursively (so `providers
 * "openai" { models "m" {} }` adds a model to an existing provider); other blocks are added.
 * Used for an agent directory's `agent.acl`, which is merged over the agent's configuration.
 */
export function mergeAclDocuments(base: AclDocument, overlay: AclDocument): AclDocument {
  return { ...(base.file === undefined ? {} : { file: base.file }), body: mergeBodies(base.body, overlay.body), warnings: [...base.warnings, ...overlay.warnings] };
}

function mergeBodies(base: AclBody, overlay: AclBody): AclBody {
  const replaced = new Set(overlay.attributes.map((a) => a.name));
  const attributes = [...base.attributes.filter((a) => !replaced.has(a.name)), ...overlay.attributes];
  const blocks: AclBlock[] = [...base.blocks];
  for (const block of overlay.blocks) {
    const at = blocks.findIndex((b) => b.type === block.type && b.labels.length === block.labels.length && b.labels.every((l, i) => l === block.labels[i]));
    if (at === -1) blocks.push(block);
    else blocks[at] = { ...block, body: mergeBodies((blocks[at] as AclBlock).body, block.body) };
  }
  return { attributes, blocks };
}
