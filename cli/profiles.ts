import { Command, Option } from 'commander';
import { AppError } from '../core/errors.js';
import type { Profile, SearchQuery } from '../core/profiler/profile.js';
import type { ProfileStore } from '../core/profiler/storage/profile-storage.js';
import { jsonForTerminal, terminalSafeBlock } from '../render/text/terminal-safe.js';
import { hasDatabaseFilter, searchByQueries } from '../core/profiler/database-filter.js';
import { countMatches, exactCount } from '../core/profiler/match-count.js';
import { panelForJson, profileForJson, summaryForJson } from './json-times.js';
import { openExistingStore } from './open-store.js';
import {
  nonEmptyFilter,
  parseDuration,
  parseInteger,
  parseStatusFilter,
  parseTimeOption,
  STORE_OPTION_HELP,
} from './options.js';
import { textOptions, type Output } from './output.js';
import { makeTailCommand } from './profiles-tail.js';

interface StoreOption {
  store?: string;
}
interface ListOptions extends StoreOption {
  status?: string;
  method?: string;
  ip?: string;
  url?: string;
  since?: string;
  until?: string;
  limit: string;
  json: boolean;
  wide?: boolean;
  includeProfiler: boolean;
  minQueries?: string;
  repeatedQueries?: boolean;
}
interface ShowOptions extends StoreOption {
  panel?: string;
  json: boolean;
  html: boolean;
  wide?: boolean;
  all: boolean;
  includeProfiler: boolean;
}

async function withStore<T>(
  opts: StoreOption,
  work: (storage: ProfileStore) => Promise<T>,
  output: Output,
): Promise<T> {
  const storage = await openExistingStore(opts.store, output);
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}

/** `latest` or a token from the store: a malformed or unknown token is a one-line error, exit 1 (find-profile.ts). */
export async function loadProfile(storage: ProfileStore, given: string, includeProfiler = false): Promise<Profile> {
  const { findProfile } = await import('../core/profiler/find-profile.js');
  return findProfile(storage, given, includeProfiler);
}

const wideOption = () =>
  new Option(
    '--wide',
    "every column, not fitted to the terminal's width (default: its width, else $COLUMNS, else 100)",
  );

const storeOption = () => new Option('--store <dir|url>', STORE_OPTION_HELP);

/**
 * Each subcommand imports what it uses when it runs (renderers, the diff, the exports): `profiles list`
 * loads neither the HTML pages nor their syntax highlighter.
 */
export function makeProfilesCommand(output: Output): Command {
  const profiles = new Command('profiles')
    .description('List, show, compare, export and prune stored profiles (no server needed)')
    .addHelpText(
      'after',
      `
Examples:
  $ app profiles list --status 4xx
  $ app profiles show latest --panel exception
  $ app profiles diff 3f2a1c 9b0e4d
  $ app profiles export 3f2a1c --curl
  $ app profiles prune --keep 1000`,
    );

  profiles
    .command('list')
    .description('List profiles, newest first')
    .option('--status <status>', 'exact status (404) or a class (4xx)')
    .option('--method <method>', 'HTTP method')
    .option('--ip <ip>', 'client IP')
    .option('--url <substring>', 'part of the URL')
    .option('--since <time>', 'ISO time, or a duration ago (15m, 2h)')
    .option('--until <time>', 'ISO time, or a duration ago')
    .option('--min-queries <n>', 'only profiles whose code ran at least this many database queries')
    .option('--repeated-queries', 'only profiles with a repeated-query (N+1) warning in their Database panel', false)
    .option('--limit <n>', 'at most this many', '20')
    .option('--json', 'print a JSON array of the list fields', false)
    .addOption(wideOption())
    .option('--include-profiler', "include the profiler's own requests (/_profiler/...)", false)
    .addOption(storeOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ app profiles list --status 4xx --limit 5\n  $ app profiles list --url /hello --since 1h --json',
    )
    .action(async (opts: ListOptions) => {
      const query: SearchQuery = { limit: parseInteger(opts.limit, 'limit', 1), hideProfiler: !opts.includeProfiler };
      if (opts.status !== undefined) query.status = parseStatusFilter(opts.status);
      if (opts.method !== undefined) query.method = nonEmptyFilter(opts.method, '--method').toUpperCase();
      if (opts.ip !== undefined) query.ip = nonEmptyFilter(opts.ip, '--ip');
      if (opts.url !== undefined) query.url = nonEmptyFilter(opts.url, '--url');
      if (opts.since !== undefined) query.since = parseTimeOption(opts.since);
      if (opts.until !== undefined) query.until = parseTimeOption(opts.until);
      if (query.since !== undefined && query.until !== undefined && query.since > query.until) {
        throw new AppError(
          'APP_ERR_CLI_USAGE',
          `--since (${opts.since}) is later than --until (${opts.until}): no profile can be in that range.`,
        );
      }
      const database = {
        ...(opts.minQueries !== undefined ? { minQueries: parseInteger(opts.minQueries, 'min-queries', 0) } : {}),
        repeated: opts.repeatedQueries === true,
      };
      const [rows, total] = await withStore(
        opts,
        async (storage) => {
          if (!hasDatabaseFilter(database)) return Promise.all([storage.search(query), countMatches(storage, query)]);
          const found = await searchByQueries(storage, query, database);
          return [found.rows, exactCount(found.total)] as const;
        },
        output,
      );
      if (opts.json) return output.out(`${jsonForTerminal(rows.map(summaryForJson))}\n`);
      const { renderProfileListText } = await import('../render/text/profile-list-text.js');
      output.out(renderProfileListText(rows, { ...textOptions(output, opts.wide), total, wide: opts.wide === true }));
    });

  profiles
    .command('show')
    .description('Show one panel of a profile as text, JSON or the HTML page')
    .argument('<token>', 'a token, or "latest"')
    .option(
      '--panel <panel>',
      "the panel to show, by name (a wrong one lists the profile's panels); default: exception when the request threw one, else request",
    )
    .addOption(
      new Option('--json', "print the stored profile as JSON, or with --panel only that panel's data")
        .default(false)
        .conflicts('html'),
    )
    .option(
      '--html',
      'print the HTML page of the panel (control characters written as visible escapes, \\x1b or \\u009b, to a terminal or a file alike)',
      false,
    )
    .addOption(wideOption())
    .option(
      '--all',
      "in the log and exception panels, every log record: the event channel's DEBUG records too (one per listener call)",
      false,
    )
    .option('--include-profiler', 'let "latest" be one of the profiler\'s own requests', false)
    .addOption(storeOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ app profiles show latest\n  $ app profiles show 3f2a1c --panel exception\n  $ app profiles show 3f2a1c --panel log --json | jq .data.records',
    )
    .action(async (token: string, opts: ShowOptions) => {
      const profile = await withStore(opts, (storage) => loadProfile(storage, token, opts.includeProfiler), output);
      // The registry loads every panel's views: only `show` needs it, so `app --version` and `profiles list` never do.
      const { defaultPanel, findPanel, profilePanels } = await import('../panels/registry.js');
      const panel = opts.panel === undefined ? defaultPanel(profile) : findPanel(profile, opts.panel);
      if (panel === null) {
        const choices = profilePanels(profile)
          .map((p) => `${p.name} (${p.title})`)
          .join(', ');
        throw new AppError(
          'APP_ERR_CLI_USAGE',
          `option '--panel <panel>' argument '${opts.panel}' is invalid. Allowed choices are ${choices}.`,
        );
      }
      if (opts.json)
        output.out(
          `${jsonForTerminal(opts.panel !== undefined ? panelForJson(profile, panel) : profileForJson(profile))}\n`,
        );
      else if (opts.html)
        output.out(
          terminalSafeBlock(
            (await import('../web-profiler/views/profile-page.js')).renderProfilePage(profile, { panel: panel.name }),
          ),
        );
      else
        output.out(
          (await import('../panels/profile-text.js')).renderProfileText(profile, panel.name, {
            ...textOptions(output, opts.wide),
            allRecords: opts.all,
          }),
        );
    });

  profiles
    .command('diff')
    .description(
      'Compare two profiles: status, route, exceptions, log by level, database queries, events, durations; exit 1 when they differ',
    )
    .argument('<a>', 'token or "latest"')
    .argument('<b>', 'token or "latest"')
    .option('--json', 'print the comparison as JSON', false)
    .addOption(wideOption())
    .addOption(storeOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ app profiles diff 3f2a1c 9b0e4d\n  $ app profiles diff 3f2a1c latest --json',
    )
    .action(async (a: string, b: string, opts: StoreOption & { json: boolean; wide?: boolean }) => {
      const [{ diffProfiles }, { renderProfileDiffText }] = await Promise.all([
        import('../core/profiler/profile-diff.js'),
        import('../render/text/profile-diff-text.js'),
      ]);
      const diff = await withStore(
        opts,
        async (storage) => diffProfiles(await loadProfile(storage, a), await loadProfile(storage, b)),
        output,
      );
      output.out(
        opts.json ? `${jsonForTerminal(diff)}\n` : renderProfileDiffText(diff, textOptions(output, opts.wide)),
      );
      if (!diff.same) output.exitCode = 1;
    });

  profiles
    .command('export')
    .description(
      "Print the recorded request as a curl command or a HAR log (redacted headers and query values left out, a body's left as [REDACTED])",
    )
    .argument('<token>', 'token or "latest"')
    .option('--curl', 'a curl command line')
    .option('--har', 'a HAR 1.2 document')
    .option(
      '--target <url>',
      'http(s) origin to aim at, its path put before the recorded one (default: loopback on the port the server answered on)',
    )
    .addOption(storeOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ app profiles export 3f2a1c --curl\n  $ app profiles export latest --har > request.har\n  $ app profiles export 3f2a1c --curl --target http://127.0.0.1:9000',
    )
    .action(async (token: string, opts: StoreOption & { curl?: boolean; har?: boolean; target?: string }) => {
      if (!!opts.curl === !!opts.har) throw new AppError('APP_ERR_CLI_USAGE', 'Choose one of --curl or --har.');
      const [{ replayableRequest, toCurl, toHar }, { invalidTargetMessage, parseTarget }] = await Promise.all([
        import('../core/profiler/export-request.js'),
        import('../core/profiler/replay-origin.js'),
      ]);
      if (opts.target !== undefined && parseTarget(opts.target) === null)
        throw new AppError('APP_ERR_CLI_USAGE', invalidTargetMessage(opts.target));
      const profile = await withStore(opts, (storage) => loadProfile(storage, token), output);
      if (opts.target === undefined) {
        const { verifyRecordingServer } = await import('../core/profiler/verify-recording-server.js');
        const { origin, target, method } = replayableRequest(profile);
        await verifyRecordingServer(
          origin,
          profile.token,
          `aim the export of ${method} ${origin}${target} at the server that recorded it`,
        );
      }
      output.out(opts.curl ? toCurl(profile, opts.target) : `${jsonForTerminal(toHar(profile, opts.target))}\n`);
    });

  profiles
    .command('prune')
    .description('Remove old profiles: keep the newest <n>, and/or drop those older than a duration')
    .option('--keep <n>', 'keep this many newest profiles')
    .option('--older-than <duration>', 'remove profiles older than this (30m, 12h, 7d)')
    .option('--yes', 'confirm a prune that removes every profile (--keep 0)', false)
    .addOption(storeOption())
    .addHelpText('after', '\nExamples:\n  $ app profiles prune --keep 1000\n  $ app profiles prune --older-than 2d')
    .action(async (opts: StoreOption & { keep?: string; olderThan?: string; yes: boolean }) => {
      if (opts.keep === undefined && opts.olderThan === undefined)
        throw new AppError('APP_ERR_CLI_USAGE', 'Say what to prune: --keep <n> and/or --older-than <duration>.');
      if (opts.keep !== undefined && parseInteger(opts.keep, 'keep') === 0 && !opts.yes) {
        throw new AppError(
          'APP_ERR_CLI_USAGE',
          '--keep 0 removes every profile: add --yes to confirm (app profiles clear does the same).',
        );
      }
      const options = {
        ...(opts.keep !== undefined ? { keep: parseInteger(opts.keep, 'keep') } : {}),
        ...(opts.olderThan !== undefined ? { olderThanMs: parseDuration(opts.olderThan) } : {}),
      };
      const removed = await withStore(opts, (storage) => storage.prune(options), output);
      output.err(`Removed ${removed} profile${removed === 1 ? '' : 's'}.\n`);
    });

  profiles
    .command('clear')
    .description('Remove every stored profile')
    .addOption(storeOption())
    .addHelpText('after', '\nExamples:\n  $ app profiles clear\n  $ app profiles clear --store ./var/other-profiler')
    .action(async (opts: StoreOption) => {
      await withStore(opts, (storage) => storage.clear(), output);
      output.err('The profile store is empty.\n');
    });

  profiles.addCommand(makeTailCommand(output));

  return profiles;
}
