import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AppError } from '../../errors.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import { APP_FILES } from '../app-files.js';
import { APP_CONFIG_TEMPLATE } from './app-config-template.js';

/** A 16x16 favicon (an ICO holding one PNG): browsers ask every site for /favicon.ico. */
const FAVICON_ICO = Buffer.from(
  'AAABAAEAEBAAAAEAIABbAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAQAAAAEAgGAAAAH/P/YQAAACJJREFUeNpjEJRQ/08JZhhcBvw6I0oUHjVg1ADaGjA0MxMAY1HpXIUcWVQAAAAASUVORK5CYII=',
  'base64',
);

/** What installing appkernel leaves in a folder: `app init` may still scaffold there without --force. */
const INSTALL_LEFTOVERS = new Set(['package.json', 'package-lock.json', 'node_modules', '.git', '.gitignore']);

const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      // tsx runs the files as they are: imports without an extension (./lib/pricing) and with .ts both type-check.
      target: 'ES2022',
      module: 'preserve',
      moduleResolution: 'bundler',
      strict: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: ['node'],
    },
    include: ['app.config.ts', 'app.config.mts', 'lib/**/*.ts'],
  },
  null,
  2,
)}\n`;

const GITIGNORE = 'node_modules/\nvar/\n';

export interface ScaffoldResult {
  dir: string;
  /** paths relative to dir */
  written: string[];
  /** existing files left as they were (with --force) */
  kept: string[];
  /** existing files that gained something (package.json: "package.json (added ...)") */
  updated: string[];
  /** what the user should know of an existing package.json: what was added, what was kept */
  notes: string[];
  /** how to serve and test the app: the npm scripts, or npx when the package.json has others of those names */
  commands: { serve: string; test: string };
}

/**
 * Writes a new project into `dir`: app.config.ts, package.json (dev and test scripts), tsconfig.json,
 * public/favicon.ico, .gitignore. A folder holding anything but what installing appkernel leaves is
 * refused (APP_ERR_INIT_NOT_EMPTY) unless `force`; an existing file is never overwritten, an existing
 * package.json only gains the missing scripts and dependency, and without "type": "module" it gets
 * app.config.mts (an ES module whatever the package's type).
 */
export function scaffoldProject(target: string, options: { force: boolean }): ScaffoldResult {
  const dir = resolve(target);
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new AppError('APP_ERR_INIT_NOT_EMPTY', `"${target}" exists and is not a folder.`);
  const foreign = existsSync(dir) ? readdirSync(dir).filter((name) => !INSTALL_LEFTOVERS.has(name)) : [];
  if (foreign.length > 0 && !options.force) {
    throw new AppError(
      'APP_ERR_INIT_NOT_EMPTY',
      `The folder "${target}" is not empty (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', ...' : ''}): use --force to add the project's files beside them (no file is overwritten).`,
    );
  }
  const result: ScaffoldResult = {
    dir,
    written: [],
    kept: [],
    updated: [],
    notes: [],
    commands: { serve: 'npm run dev', test: 'npm test' },
  };
  // Every file it may write or change is checked before any is written: nothing is written through a link out of the folder.
  refuseLinks(dir, target, [
    'package.json',
    ...APP_FILES,
    'tsconfig.json',
    'public',
    'public/favicon.ico',
    '.gitignore',
  ]);
  const found = readPackageJson(dir);
  // What `npm install appkernel` writes in an empty folder (its dependencies alone) is completed as a new one.
  const pkg =
    found !== null && Object.keys(found).every((key) => key === 'dependencies' || key === 'devDependencies')
      ? null
      : found;
  // An ES module whatever the package says: a package.json without "type": "module" keeps its own.
  const appFile =
    APP_FILES.find((name) => existsSync(join(dir, name))) ??
    (pkg === null || pkg.type === 'module' ? 'app.config.ts' : 'app.config.mts');
  const files: [string, string | Buffer][] = [
    [appFile, APP_CONFIG_TEMPLATE],
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
  writePackageJson(dir, pkg, found, result);
  return result;
}

/** Fails (nothing written yet) naming the first of `names` in `dir` that is a symbolic link, dangling or not. */
function refuseLinks(dir: string, target: string, names: readonly string[]): void {
  for (const name of names) {
    let link = false;
    try {
      link = lstatSync(join(dir, name)).isSymbolicLink();
    } catch {
      continue; // not there: it will be written as a file of the folder
    }
    if (link) {
      throw new AppError(
        'APP_ERR_INIT_NOT_EMPTY',
        `"${name}" in "${target}" is a symbolic link: app init writes only files of the folder itself, never through a link. Nothing was written; replace the link with a file (or remove it) and run app init again.`,
      );
    }
  }
}

function readPackageJson(dir: string): Record<string, unknown> | null {
  const path = join(dir, 'package.json');
  if (!existsSync(path)) return null;
  try {
    const pkg = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (typeof pkg === 'object' && pkg !== null && !Array.isArray(pkg)) return pkg as Record<string, unknown>;
    throw new Error('it does not hold an object');
  } catch (error) {
    throw new AppError(
      'APP_ERR_INIT_NOT_EMPTY',
      `The package.json in "${dir}" is not valid JSON: ${(error as Error).message}`,
    );
  }
}

const SCRIPTS = { dev: 'app serve', test: 'app snapshot / /notes/1 /hello/world', check: 'tsc --noEmit' } as const;

/** What `npm run check` needs: the compiler and Node's types, at the versions appkernel is built with. */
const DEV_DEPENDENCIES = { typescript: '^5.4.0', '@types/node': '^20.0.0' } as const;

/**
 * A new package.json (or the one an install left, `installed`): name, private, an ES module, the
 * scripts and the appkernel dependency. An existing one gains only the missing scripts and the dependency: its type, name and other
 * scripts are the project's, and a script of the same name it keeps is said, with npx instead.
 */
function writePackageJson(
  dir: string,
  existing: Record<string, unknown> | null,
  installed: Record<string, unknown> | null,
  result: ScaffoldResult,
): void {
  const pkg = existing ?? {
    name:
      basename(dir)
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-')
        .replace(/^[._-]+/, '') || 'my-app',
    private: true,
    type: 'module',
    ...installed,
  };
  const scripts = { ...(pkg.scripts as Record<string, string> | undefined) };
  const dependencies = { ...(pkg.dependencies as Record<string, string> | undefined) };
  const devDependencies = { ...(pkg.devDependencies as Record<string, string> | undefined) };
  const added: string[] = [];
  for (const [name, command] of Object.entries(SCRIPTS)) {
    if (scripts[name] === undefined) {
      scripts[name] = command;
      added.push(`script "${name}"`);
    } else if (scripts[name] !== command) {
      const npx = `npx ${command}`;
      if (name === 'check') continue;
      result.notes.push(
        `kept your "${name}" script ("${scripts[name]}"): ${name === 'dev' ? 'serve the app' : 'test its pages'} with ${npx}`,
      );
      result.commands[name === 'dev' ? 'serve' : 'test'] = npx;
    }
  }
  if (dependencies.appkernel === undefined) {
    dependencies.appkernel = `file:${PACKAGE_ROOT}`;
    added.push('dependency "appkernel"');
  }
  for (const [name, range] of Object.entries(DEV_DEPENDENCIES)) {
    if (devDependencies[name] !== undefined || dependencies[name] !== undefined) continue;
    devDependencies[name] = range;
    added.push(`dev dependency "${name}"`);
  }
  if (existing !== null && added.length === 0) {
    result.kept.push('package.json');
    return;
  }
  pkg.scripts = scripts;
  pkg.dependencies = dependencies;
  pkg.devDependencies = devDependencies;
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  if (existing === null) result.written.push(installed === null ? 'package.json' : 'package.json (completed)');
  else result.updated.push(`package.json (added ${added.join(', ')})`);
}
