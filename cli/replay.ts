import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { AppError } from '../core/errors.js';
import { jsonForTerminal, terminalSafe } from '../render/text/terminal-safe.js';
import { openExistingStore } from './open-store.js';
import { STORE_OPTION_HELP } from './options.js';
import { textOptions, type Output } from './output.js';
import { loadProfile } from './profiles.js';

interface ReplayOptions {
  target?: string;
  header: string[];
  query: string[];
  data?: string;
  dataFile?: string;
  sendIncomplete: boolean;
  diff: boolean;
  json: boolean;
  wide?: boolean;
  store?: string;
}

function collectHeader(value: string, previous: string[]): string[] {
  if (!/^[^:\s]+:\s?.*$/.test(value))
    throw new AppError('APP_ERR_CLI_USAGE', `Invalid header "${value}": expected "Name: value".`);
  return [...previous, value];
}

function collectQuery(value: string, previous: string[]): string[] {
  if (!/^[^=]+=/.test(value))
    throw new AppError('APP_ERR_CLI_USAGE', `Invalid query parameter "${value}": expected "name=value".`);
  return [...previous, value];
}

/** How to send again what was left out, by kind: headers, query parameters; a path parameter cannot be. */
function omittedHint(omitted: readonly string[]): string {
  const ways: string[] = [];
  if (omitted.some((o) => !o.startsWith('query ') && !o.startsWith('path parameter ')))
    ways.push('headers with --header "Name: value"');
  if (omitted.some((o) => o.startsWith('query '))) ways.push('query parameters with --query "name=value"');
  const hint = ways.length === 0 ? '' : ` Send ${ways.join(', ')}.`;
  return omitted.some((o) => o.startsWith('path parameter '))
    ? `${hint} A redacted path parameter is sent as an empty segment.`
    : hint;
}

function readDataFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder, not a file' : (error as Error).message;
    throw new AppError('APP_ERR_CLI_USAGE', `Cannot read --data-file "${path}": ${why}.`);
  }
}

export function makeReplayCommand(output: Output): Command {
  return new Command('replay')
    .description('Send a recorded request again to the running server and print the new status and token')
    .argument('<token>', 'token or "latest"')
    .option(
      '--target <url>',
      'http(s) origin to send to, its path put before the recorded one (default: loopback on the port the server answered on)',
    )
    .option('--header <header>', 'add or replace a header, "Name: value" (repeatable)', collectHeader, [])
    .option('--query <param>', 'add or replace a query parameter, "name=value" (repeatable)', collectQuery, [])
    .addOption(
      new Option('--data <body>', 'send this body instead of the recorded one (e.g. one that was redacted)').conflicts(
        'dataFile',
      ),
    )
    .option('--data-file <path>', "send this file's content as the body")
    .option(
      '--send-incomplete',
      'send the stored body even when it is not the one received (values redacted in it, cut when recorded); refused otherwise',
      false,
    )
    .option('--diff', 'compare the old and new profiles; exit 1 when they differ', false)
    .option('--json', 'print the result as JSON', false)
    .option('--wide', "do not fit the comparison to the terminal's width (default: its width, else $COLUMNS, else 100)")
    .option('--store <dir|url>', STORE_OPTION_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ app replay latest\n  $ app replay 3f2a1c --diff\n  $ app replay 3f2a1c --target http://127.0.0.1:9000\n  $ app replay 3f2a1c --header "Authorization: Bearer dev"\n  $ app replay 3f2a1c --query "token=dev-token"\n  $ app replay 3f2a1c --data-file login.json',
    )
    .action(async (token: string, opts: ReplayOptions) => {
      const { invalidTargetMessage, parseTarget } = await import('../core/profiler/replay-origin.js');
      if (opts.target !== undefined && parseTarget(opts.target) === null)
        throw new AppError('APP_ERR_CLI_USAGE', invalidTargetMessage(opts.target));
      const body = opts.dataFile === undefined ? opts.data : readDataFile(opts.dataFile);
      const storage = await openExistingStore(opts.store, output);
      let recorded;
      try {
        recorded = await loadProfile(storage, token);
      } finally {
        await storage.close();
      }
      const headers = Object.fromEntries(
        opts.header.map((h) => {
          const i = h.indexOf(':');
          return [h.slice(0, i).trim(), h.slice(i + 1).trim()];
        }),
      );
      // Loaded here, not at start: undici costs every other command (serve above all) its start-up time.
      const { diffReplay, replay } = await import('../core/profiler/replay.js');
      const query = Object.fromEntries(
        opts.query.map((q) => [q.slice(0, q.indexOf('=')), q.slice(q.indexOf('=') + 1)]),
      );
      const result = await replay(recorded, {
        target: opts.target,
        headers,
        query,
        fetchProfile: opts.diff,
        sendIncomplete: opts.sendIncomplete,
        ...(body === undefined ? {} : { body }),
      });
      if (result.originReplaced)
        output.err(
          `Sent to the server that recorded the request, not to the Host it was sent with (${terminalSafe(result.originReplaced)}); use --target to choose.\n`,
        );
      if (result.omitted.length) {
        output.err(
          `Left out (redacted when recorded): ${terminalSafe(result.omitted.join(', '))}.${omittedHint(result.omitted)}\n`,
        );
      }
      if (result.bodyIncomplete)
        output.err(`Incomplete request: the stored body was sent as it is, ${terminalSafe(result.bodyIncomplete)}.\n`);
      const diff = opts.diff && result.profile ? diffReplay(recorded, result.profile) : null;
      if (opts.diff && !result.profile) {
        output.err(
          `The new profile could not be fetched (${terminalSafe(result.profileProblem ?? 'no reason given')}): nothing to compare.\n`,
        );
        output.exitCode = 1;
      }
      if (opts.json) {
        output.out(
          `${jsonForTerminal({ url: result.url, originReplaced: result.originReplaced, status: result.status, token: result.token, omitted: result.omitted, bodyTruncated: result.bodyTruncated, bodyIncomplete: result.bodyIncomplete, diff })}\n`,
        );
      } else {
        output.out(
          `${terminalSafe(`${recorded.method} ${result.url}`)} -> ${result.status}${result.token ? ` (token ${terminalSafe(result.token)})` : ''}\n`,
        );
        if (diff)
          output.out(
            (await import('../render/text/profile-diff-text.js')).renderProfileDiffText(
              diff,
              textOptions(output, opts.wide),
            ),
          );
      }
      if (diff && !diff.same) output.exitCode = 1;
    });
}
