import type { DumpNode } from '../core/profiler/profile.js';

const INDENT = '  ';

/** A dumped value as indented plain text (class names, lengths, cycles and cuts marked); the caller escapes it. */
export function dumpText(node: DumpNode, depth = 0): string {
  const pad = INDENT.repeat(depth + 1);
  const close = INDENT.repeat(depth);
  switch (node.type) {
    case 'null':
    case 'undefined':
      return node.type;
    case 'boolean':
    case 'number':
    case 'bigint':
    case 'symbol':
      return node.value;
    case 'string':
      return JSON.stringify(node.value) + (node.length > node.value.length ? ` …(${node.length} characters)` : '');
    case 'function':
      return `[Function ${node.name}]`;
    case 'date':
      return `Date ${node.value}`;
    case 'error':
      return `${node.class} ${JSON.stringify(node.message)}`;
    case 'circular':
      return `[circular ${node.class}]`;
    case 'cut':
      return `[${node.class} not shown: ${node.why === 'depth' ? 'nested too deep' : 'dump too large'}]`;
    case 'array': {
      const more = node.length > node.items.length ? `\n${pad}…${node.length - node.items.length} more` : '';
      if (node.items.length === 0) return `${node.class}(${node.length}) []`;
      return `${node.class}(${node.length}) [\n${node.items.map((item) => pad + dumpText(item, depth + 1)).join(',\n')}${more}\n${close}]`;
    }
    case 'map':
    case 'set': {
      const more = node.length > node.items.length ? `\n${pad}…${node.length - node.items.length} more` : '';
      if (node.items.length === 0) return `${node.class}(${node.length}) {}`;
      const line = ([key, value]: [DumpNode, DumpNode]) =>
        node.type === 'map'
          ? `${dumpText(key, depth + 1)} => ${dumpText(value, depth + 1)}`
          : dumpText(value, depth + 1);
      return `${node.class}(${node.length}) {\n${node.items.map((item) => pad + line(item)).join(',\n')}${more}\n${close}}`;
    }
    case 'object': {
      const more = node.more > 0 ? `\n${pad}…${node.more} more` : '';
      const prefix = node.class === 'Object' ? '' : `${node.class} `;
      if (node.entries.length === 0 && node.more === 0) return `${prefix}{}`;
      return `${prefix}{\n${node.entries.map(([key, value]) => `${pad}${keyText(key)}: ${dumpText(value, depth + 1)}`).join(',\n')}${more}\n${close}}`;
    }
    default:
      return '[unknown]';
  }
}

function keyText(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/** "file.ts:12", or "unknown place" when the stack did not say. */
export function dumpPlace(dump: { file: string | null; line: number | null }): string {
  return dump.file == null ? 'unknown place' : `${dump.file}${dump.line == null ? '' : `:${dump.line}`}`;
}
