import { DUMP_COLLECTOR, type DumpEntry } from '../../debug/dump.js';
import type { DumpNode } from '../../debug/dump-value.js';
import type { DumpData } from '../panel-data.js';
import { appValueIsSecret, REDACTED, redactText, SecretValues } from '../../redaction/index.js';
import { appEntries } from './app-entries.js';
import type { CollectContext } from './collect-context.js';

/** The dump panel: each dump() call's place and value, with secret keys and values replaced. */
export function collectDump({ entries, secrets }: CollectContext): DumpData {
  return {
    dumps: (appEntries(entries, DUMP_COLLECTOR) as DumpEntry[]).map((entry) => ({
      file: typeof entry.file === 'string' ? secrets.scrub(entry.file) : null,
      line: typeof entry.line === 'number' ? entry.line : null,
      time: typeof entry.time === 'number' ? entry.time : null,
      value: redactNode(entry.value, secrets),
    })),
  };
}

/** One dump as it may be shown outside a profile (the `app serve` terminal): redacted the same way. */
export function redactDumpEntry(entry: DumpEntry): DumpEntry {
  const secrets = new SecretValues();
  return { ...entry, value: redactNode(entry.value, secrets) };
}

/** A [name, value] pair (Object.entries, a Map's or a form's entries) whose value is secret under its name: ['password', 'x']. */
function isSecretPair(items: readonly DumpNode[]): boolean {
  const [name, value] = items;
  return (
    items.length === 2 &&
    name.type === 'string' &&
    value.type !== 'array' &&
    value.type !== 'object' &&
    value.type !== 'map' &&
    isSecretEntry(name.value, value)
  );
}

/** A dump's key is the app's own name: judged with its value (app-data-secrets.ts), so `{ Key: 'item:1' }` stays. */
function isSecretEntry(key: string, value: DumpNode): boolean {
  switch (value.type) {
    case 'null':
    case 'undefined':
      return false;
    case 'string':
    case 'number':
    case 'bigint':
      return appValueIsSecret(key, value.value);
    // a whole structure (or a boolean, a date) under a key of the password family
    default:
      return appValueIsSecret(key, {});
  }
}

const REDACTED_NODE: DumpNode = { type: 'string', value: REDACTED, length: REDACTED.length };

function redactNode(node: DumpNode, secrets: SecretValues): DumpNode {
  const text = (value: string) => secrets.scrub(redactText(value));
  switch (node.type) {
    case 'string':
      return { ...node, value: text(node.value) };
    case 'error':
      return { ...node, message: text(node.message) };
    case 'array':
      return {
        ...node,
        items: isSecretPair(node.items)
          ? [redactNode(node.items[0], secrets), REDACTED_NODE]
          : node.items.map((item) => redactNode(item, secrets)),
      };
    case 'map':
    case 'set':
      return {
        ...node,
        items: node.items.map(([key, value]): [DumpNode, DumpNode] => [
          redactNode(key, secrets),
          key.type === 'string' && isSecretEntry(key.value, value) ? REDACTED_NODE : redactNode(value, secrets),
        ]),
      };
    case 'object':
      return {
        ...node,
        entries: node.entries.map(([key, value]) => [
          text(key),
          isSecretEntry(key, value) ? REDACTED_NODE : redactNode(value, secrets),
        ]),
      };
    default:
      return node;
  }
}
