import { Command, Option } from 'commander';
import { AppError } from '../core/errors.js';
import type { ProfileSummary, SearchQuery } from '../core/profiler/profile.js';
import { jsonForTerminal } from '../render/text/terminal-safe.js';
import { summaryForJson } from './json-times.js';
import { existingStoreLocation, openExistingStore } from './open-store.js';
import { describeStoreLocation, nonEmptyFilter, parseStatusFilter, STORE_OPTION_HELP } from './options.js';
import { terminalSafe } from '../render/text/terminal-safe.js';
import type { Output } from './output.js';

const POLL_MS = 250;

const storeShown = (option: string | undefined) => describeStoreLocation(existingStoreLocation(option));

interface TailOptions {
  status?: string;
  method?: string;
  url?: string;
  json: boolean;
  includeProfiler: boolean;
  store?: string;
}

/** `app profiles tail`: each new profile's line as it is stored, until Ctrl-C (SIGINT), SIGTERM or its reader goes away. */
export function makeTailCommand(output: Output): Command {
  return new Command('tail')
    .description('Print each new profile as it is stored, until Ctrl-C (works while another process serves)')
    .option('--status <status>', 'exact status (404) or a class (4xx)')
    .option('--method <method>', 'HTTP method')
    .option('--url <substring>', 'part of the URL')
    .option('--json', 'print one JSON object a line', false)
    .option('--include-profiler', "include the profiler's own requests (/_profiler/...)", false)
    .addOption(new Option('--store <dir|url>', STORE_OPTION_HELP))
    .addHelpText(
      'after',
      '\nExamples:\n  $ app profiles tail\n  $ app profiles tail --status 5xx --url /api\n  $ app profiles tail --json | jq .url',
    )
    .action(async (opts: TailOptions) => {
      const filter: Omit<SearchQuery, 'limit'> = opts.includeProfiler ? {} : { hideProfiler: true };
      if (opts.status !== undefined) filter.status = parseStatusFilter(opts.status);
      if (opts.method !== undefined) filter.method = nonEmptyFilter(opts.method, '--method').toUpperCase();
      if (opts.url !== undefined) filter.url = nonEmptyFilter(opts.url, '--url');
      const [{ ProfileFeed }, { renderProfileLine }] = await Promise.all([
        import('../core/profiler/profile-feed.js'),
        import('../render/text/profile-line-text.js'),
      ]);
      const storage = await openExistingStore(opts.store, output);
      const feed = new ProfileFeed(storage, filter);
      let stopped = false;
      let wake: () => void = () => {};
      const stop = () => {
        stopped = true;
        wake();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      output.onOutClosed?.(stop);
      try {
        await feed.next();
        output.err(`Waiting for new profiles in ${terminalSafe(storeShown(opts.store))} (Ctrl-C to stop)\n`);
        let away = false;
        while (!stopped) {
          let rows: ProfileSummary[] = [];
          try {
            rows = await feed.next();
            if (away) output.err('The profile database is back.\n');
            away = false;
          } catch (error) {
            if (!(error instanceof AppError) || error.code !== 'APP_ERR_PROFILER_STORE_UNAVAILABLE') throw error;
            if (!away) output.err(`${terminalSafe(error.message)} Waiting for it to come back (Ctrl-C to stop).\n`);
            away = true;
          }
          for (const row of rows)
            output.out(
              opts.json
                ? `${jsonForTerminal(summaryForJson(row), 0)}\n`
                : renderProfileLine(row, { color: output.color }),
            );
          if (stopped) break;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, POLL_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        await storage.close();
      }
    });
}
