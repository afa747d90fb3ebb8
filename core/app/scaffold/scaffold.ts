import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AppError } from '../../errors.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import { APP_CONFIG_TEMPLATE } from './app-config-template.js';

/** A 16x16 favicon (an ICO holding one PNG): browsers ask every site for /favicon.ico. */
const FAVICON_ICO = Buffer.from(
  'AAABAAEAEBAAAAEAIABbAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAQAAAAEAgGAAAAH/P/YQAAACJJREFUeNpjEJRQ/08JZhhcBvw6I0oUHjVg1ADaGjA0MxMAY1HpXIUcWVQAAAAASUVORK5CYII=',
  'base64');

/** What installing appkernel leaves in a folder: `app init` may still scaffold there without --force. */
const INSTALL_LEFTOVERS = new Set(['package.json', 'package-lock.json', 'node_modules', '.git', '.gitignore']);

const TSCONFIG = `${JSON.stringify({
  compilerOptions: {
    target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true,
    allowImportingTsExtensions: true, skipLibCheck: true, types: ['node'],
  },
  include: ['app.config.ts', 'lib/**/*.ts'],
}, null, 2)}\n`;

const GITIGNORE = 'node_modules/\nvar/\n';

export interface ScaffoldResult {
  dir: string;
  /** paths relative to dir */
  written: string[];
  /** existing files left as they were (with --force) */
  kept: string[];
}

/**
 * Writes a new project into `dir`: app.config.ts, package.json (dev and test scripts), tsconfig.json,
 * public/favicon.ico, .gitignore. A folder holding anything but what installing appkernel leaves is
 * refused (APP_ERR_INIT_NOT_EMPTY) unless `force`; an existing file is never overwritten, and an
 * existing package.json only gains what is missing.
 */
export function scaffoldProject(target: string, options: { force: boolean }): ScaffoldResult {
  const dir = resolve(target);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new AppError('APP_ERR_INIT_NOT_EMPTY', `"${target}" exists and is not a folder.`);
  const foreign = existsSync(dir) ? readdirSync(dir).filter((name) => !INSTALL_LEFTOVERS.has(name)) : [];
  if (foreign.length > 0 && !options.force) {
    throw new AppError('APP_ERR_INIT_NOT_EMPTY',
      `The folder "${target}" is not empty (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', ...' : ''}): use --force to add the project's files beside them (no file is overwritten).`);
  }
  mkdirSync(join(dir, 'public'), { recursive: true });
  const result: ScaffoldResult = { dir, written: [], kept: [] };
  const files: [string, string | Buffer][] = [
    ['app.config.ts', APP_CONFIG_TEMPLATE],
    ['tsconfig.json', TSCONFIG],
    ['public/favicon.ico', FAVICON_ICO],
    ['.gitignore', GITIGNORE],
  ];
  for (const [name, content] of files) {
    const path = join(dir, name);
    if (existsSync(path)) {
      result.kept.push(name);
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content, { flag: 'wx' });
    result.written.push(name);
  }
  writePackageJson(dir, result);
  return result;
}

function writePackageJson(dir: string, result: ScaffoldResult): void {
  const path = join(dir, 'package.json');
  const existing = existsSync(path);
  let pkg: Record<string, unknown>;
  try {
    pkg = existing ? JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> : {};
  } catch (error) {
    throw new AppError('APP_ERR_INIT_NOT_EMPTY', `The package.json in "${dir}" is not valid JSON: ${(error as Error).message}`);
  }
  const scripts = { ...(pkg.scripts as Record<string, string> | undefined) };
  const dependencies = { ...(pkg.dependencies as Record<string, string> | undefined) };
  const before = JSON.stringify(pkg);
  pkg.name ??= basename(dir).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '') || 'my-app';
  pkg.private ??= true;
  pkg.type ??= 'module';
  scripts.dev ??= 'app serve';
  scripts.test ??= 'app snapshot / /notes/1 /hello/world';
  dependencies.appkernel ??= `file:${PACKAGE_ROOT}`;
  pkg.scripts = scripts;
  pkg.dependencies = dependencies;
  if (existing && JSON.stringify(pkg) === before) {
    result.kept.push('package.json');
    return;
  }
  writeFileSync(path, `${JSON.stringify(pkg, null, 2)}\n`);
  result.written.push(existing ? 'package.json (scripts added)' : 'package.json');
}
