import { resolve } from 'node:path';
import { Command } from 'commander';
import { AppError } from '../core/errors.js';
import type { CheckedPath, FetchedPage } from '../snapshots/check-paths.js';
import { terminalSafe, terminalSafeBlock } from '../render/text/terminal-safe.js';
import { notAFile } from './options.js';
import type { Output } from './output.js';
import { collectRequestHeader, snapshotRequest } from './snapshot-request.js';
import { collectAllowedStatus, describeStatus, refusedStatusHint, statusAccepted } from './snapshot-status.js';

interface SnapshotOptions {
  app?: string;
  update: boolean;
  dir: string;
  debug: boolean;
  method?: string;
  header: string[];
  data?: string;
  allowStatus: string[];
}

export function makeSnapshotCommand(output: Output): Command {
  return new Command('snapshot')
    .description(
      'Check the structure of your pages against stored snapshots (requests run in-process, no port); exit 1 on a mismatch, or on a status other than 2xx and 3xx unless --allow-status names it',
    )
    .argument('<paths...>', 'paths to request, e.g. / /hello/world')
    .option('--app <file>', 'app file (default: app.config.* in the working directory, else the demo app)')
    .option(
      '--update',
      'write the snapshots anew (as UPDATE_SNAPSHOTS=1 does; with CI=true a missing one fails)',
      false,
    )
    .option('--dir <folder>', 'snapshot folder', '__snapshots__')
    .option('--no-debug', 'render errors as in production')
    .option('-X, --method <method>', 'request method (default: GET, or POST with --data)')
    .option('-H, --header <header>', 'add a request header, "Name: value" (repeatable)', collectRequestHeader, [])
    .option('-d, --data <body>', 'send this body (JSON or a form, by its look, unless -H sets Content-Type)')
    .option(
      '--allow-status <status>',
      'also record pages answering this status or class, 404 or 4xx (repeatable); ' +
        'by default only 2xx and 3xx are recorded, another status exits 1',
      collectAllowedStatus,
      [],
    )
    .addHelpText(
      'after',
      `
Examples:
  $ app snapshot / /hello/world
  $ app snapshot / --update
  $ app snapshot /robots.txt --allow-status 404
  $ app snapshot /items -X POST -d '{"name":"pen"}' -H "Accept: text/html"`,
    )
    .action(async (paths: string[], opts: SnapshotOptions) => {
      const bad = paths.find((p) => !p.startsWith('/'));
      if (bad) throw new AppError('APP_ERR_CLI_USAGE', `Invalid path "${bad}": paths start with "/".`);
      const sent = snapshotRequest(opts);
      const cwd = process.cwd();
      const snapshotDir = resolve(cwd, opts.dir);
      notAFile(snapshotDir, '--dir');
      const [{ requestInProcess }, { createAppKernel }, { findAppFile, loadApp }, { snapshotModeFromEnv }] =
        await Promise.all([
          import('../core/app/in-process-client.js'),
          import('../server/kernel-factory.js'),
          import('../server/load-app.js'),
          import('../snapshots/snapshot-file.js'),
        ]);
      const { app } = await loadApp(opts.app ? resolve(cwd, opts.app) : findAppFile(cwd));
      const kernel = createAppKernel(app, { debug: opts.debug, root: cwd, profiler: null });
      const mode = snapshotModeFromEnv(process.env);
      const pages: FetchedPage[] = [];
      for (const path of paths) pages.push(await requestInProcess(kernel, sent.method, path, sent.headers, sent.body));
      const accepted = paths.filter((_, i) => statusAccepted(pages[i]!.status, opts.allowStatus));
      const pageOf = new Map(paths.map((path, i) => [path, pages[i]!]));
      // cheerio is loaded only by this command: the others start without it.
      const { checkSnapshots } = await import('../snapshots/check-paths.js');
      const { results, ok } = await checkSnapshots(async (path) => pageOf.get(path)!, accepted, {
        dir: snapshotDir,
        update: opts.update || mode.update,
        ci: mode.ci,
        method: sent.method,
      });
      const refused: number[] = [];
      let next = 0;
      paths.forEach((path, i) => {
        const status = pages[i]!.status;
        if (!statusAccepted(status, opts.allowStatus)) {
          refused.push(status);
          output.err(`${'refused'.padEnd(8)} ${terminalSafe(path)}  (answered ${describeStatus(status)}: not saved)\n`);
          return;
        }
        const r = results[next++]!;
        output.err(`${r.state.padEnd(8)} ${terminalSafe(r.path)}  (${terminalSafe(r.file)})\n`);
        if (r.diff) output.out(`${terminalSafeBlock(r.diff)}\n`);
      });
      if (!ok) output.err(failureHint(results));
      if (refused.length > 0) output.err(refusedStatusHint(refused, paths.length));
      if (!ok || refused.length > 0) output.exitCode = 1;
    });
}

/** What to do next: accept the changes with --update, or write the missing snapshots outside CI. */
export function failureHint(results: readonly CheckedPath[]): string {
  const failed = results.filter((r) => r.state === 'failed').length;
  const missing = results.filter((r) => r.state === 'missing').length;
  const lines: string[] = [];
  if (failed)
    lines.push(
      `${failed} of ${results.length} ${results.length === 1 ? 'page' : 'pages'} ${failed === 1 ? 'differs' : 'differ'} from ${failed === 1 ? 'its snapshot' : 'their snapshots'}: if the change is intended, run again with --update.`,
    );
  if (missing)
    lines.push(
      `${missing} ${missing === 1 ? 'snapshot is' : 'snapshots are'} missing and CI=true forbids writing them: run once without CI, review the files and commit them.`,
    );
  return `${lines.join('\n')}\n`;
}
