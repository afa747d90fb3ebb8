import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// The MCP SDK (and zod) cost every command its start-up time: only mcp/ imports them, and mcp/ is
// reached from the rest by import() when `app mcp` runs or /_profiler/mcp is first asked for.

const test = suite("the MCP SDK is loaded only when MCP is used, never at app serve's or app --version's start");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('when the source folders are read, then no file outside mcp/ imports the SDK, zod or mcp/ statically', () => {
  const offenders = ['cli', 'server', 'web-profiler', 'render', 'core'].flatMap(sources).filter((file) => {
    const text = readFileSync(file, 'utf8');
    return /from '(@modelcontextprotocol\/[^']*|zod[^']*|[^']*\/mcp\/[^']*)'/.test(text);
  });
  assert.equal(offenders, []);
});

test('when cli/mcp.ts and server/mcp-route.ts are read, then each reaches mcp/ by import()', () => {
  assert.match(readFileSync('cli/mcp.ts', 'utf8'), /await import\('\.\.\/mcp\/stdio-server\.js'\)/);
  assert.match(readFileSync('server/mcp-route.ts', 'utf8'), /import\('\.\.\/mcp\/http-endpoint\.js'\)/);
});

test.run();
