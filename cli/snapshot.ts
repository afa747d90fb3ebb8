import { resolve } from 'node:path';
import { Command } from 'commander';
import { AppError } from '../core/errors.js';
import type { CheckedPath } from '../snapshots/check-paths.js';
import { terminalSafe, terminalSafeBlock } from '../render/text/terminal-safe.js';
import { notAFile } from './options.js';
import type { Output } from './output.js';

interface SnapshotOptions { app?: string; update: boolean; dir: string; debug: boolean }

export function makeSnapshotCommand(output: Output): Command {
  return new Command('snapshot')
    .description('Check the structure of your pages against stored snapshots (requests run in-process, no port); exit 1 on a mismatch')
    .argument('<paths...>', 'paths to request, e.g. / /hello/world')
    .option('--app <file>', 'app file (default: app.config.* in the working directory, else the demo app)')
    .option('--update', 'write the snapshots anew (as UPDATE_SNAPSHOTS=1 does; with CI=true a missing one fails)', false)
    .option('--dir <folder>', 'snapshot folder', '__snapshots__')
    .option('--no-debug', 'render errors as in production')
    .addHelpText('after', '\nExamples:\n  $ app snapshot / /hello/world /robots.txt\n  $ app snapshot / --update')
    .action(async (paths: string[], opts: SnapshotOptions) => {
      const bad = paths.find((p) => !p.startsWith('/'));
      if (bad) throw new AppError('APP_ERR_CLI_USAGE', `Invalid path "${bad}": paths start with "/".`);
      const cwd = process.cwd();
      const snapshotDir = resolve(cwd, opts.dir);
      notAFile(snapshotDir, '--dir');
      const [{ requestInProcess }, { createAppKernel }, { findAppFile, loadApp }, { snapshotModeFromEnv }] = await Promise.all([
        import('../core/app/in-process-client.js'), import('../server/kernel-factory.js'), import('../core/app/load-app.js'), import('../snapshots/snapshot-file.js'),
      ]);
      const { app } = await loadApp(opts.app ? resolve(cwd, opts.app) : findAppFile(cwd));
      const kernel = createAppKernel(app, { debug: opts.debug, root: cwd, storage: null });
      const mode = snapshotModeFromEnv(process.env);
      // cheerio is loaded only by this command: the others start without it.
      const { checkSnapshots } = await import('../snapshots/check-paths.js');
      const { results, ok } = await checkSnapshots((path) => requestInProcess(kernel, 'GET', path), paths,
        { dir: snapshotDir, update: opts.update || mode.update, ci: mode.ci });
      for (const r of results) {
        output.err(`${r.state.padEnd(8)} ${terminalSafe(r.path)}  (${terminalSafe(r.file)})\n`);
        if (r.diff) output.out(`${terminalSafeBlock(r.diff)}\n`);
      }
      if (!ok) {
        output.err(failureHint(results));
        output.exitCode = 1;
      }
    });
}

/** What to do next: accept the changes with --update, or write the missing snapshots outside CI. */
export function failureHint(results: readonly CheckedPath[]): string {
  const failed = results.filter((r) => r.state === 'failed').length;
  const missing = results.filter((r) => r.state === 'missing').length;
  const lines: string[] = [];
  if (failed) lines.push(`${failed} of ${results.length} ${results.length === 1 ? 'page' : 'pages'} ${failed === 1 ? 'differs' : 'differ'} from ${failed === 1 ? 'its snapshot' : 'their snapshots'}: if the change is intended, run again with --update.`);
  if (missing) lines.push(`${missing} ${missing === 1 ? 'snapshot is' : 'snapshots are'} missing and CI=true forbids writing them: run once without CI, review the files and commit them.`);
  return `${lines.join('\n')}\n`;
}
