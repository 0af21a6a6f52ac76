import type { AclBlock, AclBody, AclValue } from './acl-document.js';
import { aclSyntaxError, type AclPosition } from './acl-syntax-error.js';

/** How blocks of one (camelCased) type become data. */
interface LabeledListSpec {
  /** The property that receives the block's single label. */
  readonly labelKey: string;
  /** Specs of blocks nested inside. */
  readonly children: Readonly<Record<string, LabeledListSpec>>;
}

/**
 * Block types that become LISTS of entries whose label is a property:
 * `providers "a" {}` -> `providers: [{ name: "a" }]`. Every other block type becomes an object
 * (no label) or a map keyed by its labels (`engine "google" {}` -> `engine: { google: {} }`).
 */
const LABELED_LISTS: Readonly<Record<string, LabeledListSpec>> = {
  providers: { labelKey: 'name', children: { models: { labelKey: 'id', children: {} } } },
  workerAgents: { labelKey: 'name', children: {} },
  mcpServers: { labelKey: 'name', children: {} },
};

/**
 * Values under these keys are maps chosen by the user (environment variables, HTTP headers):
 * their keys are kept verbatim instead of being camelCased.
 */
const VERBATIM_KEYS: ReadonlySet<string> = new Set(['env', 'headers', 'retentionLimits']);

/** Copies only the position out of an AST node, so the map does not retain whole subtrees. */
const at = (node: AclPosition): AclPosition => ({ line: node.line, column: node.column });

const SNAKE_KEY = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

/** `api_key` -> `apiKey`; keys that are not lower snake_case (`apiKey`, `GITHUB_TOKEN`) are kept. */
export function camelCaseKey(key: string): string {
  return SNAKE_KEY.test(key) ? key.replace(/_([a-z0-9])/g, (_match, char: string) => char.toUpperCase()) : key;
}

/** The camelCased object denoted by an ACL body, and the source position of each JSON pointer. */
export interface ConfigObject {
  readonly value: Record<string, unknown>;
  /** JSON pointer (`/providers/0/apiKey`) -> where it was written. */
  readonly positions: ReadonlyMap<string, AclPosition>;
}

/**
 * Turns a parsed ACL body into the camelCase object that {@link agentConfigJsonSchema} describes.
 * Snake and camel spellings of a key are the same key; writing both is a CONFIG_ERROR.
 */
export function aclToConfigObject(body: AclBody, file?: string): ConfigObject {
  const positions = new Map<string, AclPosition>();
  const value = convertBody(body, LABELED_LISTS, '', positions, file);
  return { value, positions };
}

function convertValue(value: AclValue, verbatim: boolean): unknown {
  if (Array.isArray(value)) return value.map((item: AclValue) => convertValue(item, false));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const name = verbatim ? key : camelCaseKey(key);
      return [name, convertValue(item, VERBATIM_KEYS.has(name))];
    }),
  );
}

function convertBody(body: AclBody, specs: Readonly<Record<string, LabeledListSpec>>, pointer: string, positions: Map<string, AclPosition>, file: string | undefined): Record<string, unknown> {
  const entries = new Map<string, unknown>();
  const sources = new Map<string, { readonly written: string; readonly position: AclPosition }>();
  const claim = (written: string, key: string, position: AclPosition): void => {
    const previous = sources.get(key);
    if (previous !== undefined && previous.written !== written) {
      throw aclSyntaxError(`'${written}' and '${previous.written}' (line ${previous.position.line}) both set '${key}'; keep one`, position, file);
    }
    if (previous === undefined) sources.set(key, { written, position });
    positions.set(`${pointer}/${key}`, positions.get(`${pointer}/${key}`) ?? at(position));
  };
  for (const attribute of body.attributes) {
    const key = camelCaseKey(attribute.name);
    claim(attribute.name, key, attribute);
    entries.set(key, convertValue(attribute.value, VERBATIM_KEYS.has(key)));
  }
  const byType = new Map<string, AclBlock[]>();
  for (const block of body.blocks) {
    const key = camelCaseKey(block.type);
    claim(block.type, key, block);
    byType.set(key, [...(byType.get(key) ?? []), block]);
  }
  for (const [key, blocks] of byType) {
    const spec = specs[key];
    entries.set(key, spec === undefined ? convertMapBlocks(blocks, `${pointer}/${key}`, positions, file) : convertListBlocks(spec, blocks, `${pointer}/${key}`, positions, file));
  }
  return Object.fromEntries(entries);
}

function convertListBlocks(spec: LabeledListSpec, blocks: readonly AclBlock[], pointer: string, positions: Map<string, AclPosition>, file: string | undefined): unknown[] {
  const seen = new Map<string, AclBlock>();
  return blocks.map((block, index) => {
    const label = block.labels[0];
    if (block.labels.length !== 1 || label === undefined) {
      throw aclSyntaxError(`block '${block.type}' needs exactly one label: ${block.type} "${spec.labelKey}" { ... }`, block, file);
    }
    const previous = seen.get(label);
    if (previous !== undefined) throw aclSyntaxError(`${block.type} "${label}" is already defined at line ${previous.line}`, block, file);
    seen.set(label, block);
    const itemPointer = `${pointer}/${index}`;
    positions.set(itemPointer, at(block));
    positions.set(`${itemPointer}/${spec.labelKey}`, at(block));
    const body = convertBody(block.body, spec.children, itemPointer, positions, file);
    if (spec.labelKey in body) throw aclSyntaxError(`${block.type} "${label}" sets '${spec.labelKey}' twice (the label already names it)`, block, file);
    return { [spec.labelKey]: label, ...body };
  });
}

function convertMapBlocks(blocks: readonly AclBlock[], pointer: string, positions: Map<string, AclPosition>, file: string | undefined): Record<string, unknown> {
  const first = blocks[0];
  if (first !== undefined && first.labels.length === 0) {
    const second = blocks[1];
    if (second !== undefined) throw aclSyntaxError(`block '${second.type}' is already defined at line ${first.line}`, second, file);
    positions.set(pointer, at(first));
    return convertBody(first.body, {}, pointer, positions, file);
  }
  // Labeled blocks nest as maps by label, like HCL's JSON form: `a "x" "y" {}` -> a.x.y.
  const root: Record<string, unknown> = {};
  for (const block of blocks) {
    if (block.labels.length === 0) throw aclSyntaxError(`block '${block.type}' mixes labeled and unlabeled forms`, block, file);
    let target = root;
    let path = pointer;
    block.labels.forEach((label, index) => {
      path += `/${label}`;
      const last = index === block.labels.length - 1;
      if (last) {
        if (Object.hasOwn(target, label)) throw aclSyntaxError(`${block.type} ${block.labels.map((l) => JSON.stringify(l)).join(' ')} is already defined`, block, file);
        positions.set(path, at(block));
        Object.defineProperty(target, label, { value: convertBody(block.body, {}, path, positions, file), enumerable: true, writable: true, configurable: true });
        return;
      }
      let next = Object.hasOwn(target, label) ? target[label] : undefined;
      if (next === undefined) {
        next = {};
        Object.defineProperty(target, label, { value: next, enumerable: true, writable: true, configurable: true });
      }
      target = next as Record<string, unknown>;
    });
  }
  return root;
}
