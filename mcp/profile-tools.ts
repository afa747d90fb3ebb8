import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AppError } from '../core/errors.js';
import type { SearchQuery } from '../core/profiler/profile.js';
import { countMatches, exactCount, matchCountText } from '../core/profiler/match-count.js';
import { hasDatabaseFilter, searchByQueries } from '../core/profiler/database-filter.js';
import { BUILT_IN_PANELS } from '../panels/built-in-panels.js';
import { defaultPanel, findPanel, profilePanels } from '../panels/registry.js';
import { renderProfileListText } from '../render/text/index.js';
import { boundedText } from './bounded-text.js';
import { lastErrorText } from './last-error-text.js';
import type { McpContext } from './mcp-context.js';
import { lookUpProfile } from './profile-lookup.js';
import { MODEL_TEXT, profileJson, profilePanelText } from './profile-text.js';
import { toolAnswer } from './tool-answer.js';

/** The profiler's own panels for a model to choose from: each name with the title its pages show. */
const PANEL_NAMES = BUILT_IN_PANELS.map((panel) => `${panel.name} (${panel.title})`).join(', ');
const STATUS = /^[1-5]([0-9]{2}|xx)$/i;
const offset = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe("where to start in the answer's text, when an earlier answer was cut (its note gives the offset)");

export function registerProfileTools(server: McpServer, context: McpContext): void {
  server.registerTool(
    'list_profiles',
    {
      description:
        "List the stored profiles of requests to the app, newest first: token, method, URL, status, time, duration. The profiler's own requests (/_profiler/...) are left out unless include_profiler is true. repeated_queries finds the requests with an N+1. Use a token with get_profile (panel db for the queries).",
      inputSchema: {
        status: z
          .string()
          .regex(STATUS, 'an exact status (404) or a class (4xx)')
          .optional()
          .describe('exact status (404) or a class (4xx, 5xx)'),
        method: z.string().min(1).optional().describe('HTTP method, e.g. POST'),
        ip: z.string().min(1).optional().describe('client IP'),
        url: z.string().min(1).optional().describe('part of the URL'),
        since: z.string().datetime({ offset: true }).optional().describe('ISO time: only profiles from then on'),
        until: z.string().datetime({ offset: true }).optional().describe('ISO time: only profiles until then'),
        limit: z.number().int().min(1).max(200).default(20).describe('at most this many (1 to 200)'),
        page: z.number().int().min(0).default(0).describe('skip page × limit profiles, for older ones'),
        include_profiler: z.boolean().default(false).describe("include the profiler's own requests"),
        min_queries: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('only profiles whose code ran at least this many database queries'),
        repeated_queries: z
          .boolean()
          .default(false)
          .describe('only profiles with a repeated-query (N+1) warning in their Database panel'),
      },
    },
    async (args) =>
      toolAnswer(async () => {
        const query: SearchQuery = {
          limit: args.limit,
          offset: args.page * args.limit,
          hideProfiler: !args.include_profiler,
        };
        if (args.status !== undefined) query.status = args.status.toLowerCase();
        if (args.method !== undefined) query.method = args.method.toUpperCase();
        if (args.ip !== undefined) query.ip = args.ip;
        if (args.url !== undefined) query.url = args.url;
        if (args.since !== undefined) query.since = Date.parse(args.since);
        if (args.until !== undefined) query.until = Date.parse(args.until);
        const database = {
          ...(args.min_queries !== undefined ? { minQueries: args.min_queries } : {}),
          repeated: args.repeated_queries,
        };
        const [rows, total] = hasDatabaseFilter(database)
          ? await searchByQueries(context.storage, query, database).then(
              (found) => [found.rows, exactCount(found.total)] as const,
            )
          : await Promise.all([context.storage.search(query), countMatches(context.storage, query)]);
        const matching = matchCountText(total);
        if (rows.length === 0)
          return total.n === 0 && !total.more
            ? 'No stored profile matches.'
            : `No profile on page ${args.page}: ${matching} match.`;
        const more =
          total.more || total.n > query.offset! + rows.length
            ? `\n(${matching} match; ask for page ${args.page + 1} for older ones)`
            : '';
        return boundedText(renderProfileListText(rows, { ...MODEL_TEXT, total }) + more, { hint: 'a smaller limit' });
      }),
  );

  server.registerTool(
    'get_profile',
    {
      description: `One stored profile: a panel as readable text (default: the exception panel when the request failed with one, else the request panel), or its JSON. Panels: ${PANEL_NAMES}, or one the app defined. Long answers are cut at 20,000 characters with a note giving the offset to continue from.`,
      inputSchema: {
        token: z.string().min(1).describe('a 6-character token from list_profiles, or "latest"'),
        panel: z.string().min(1).optional().describe(`the panel: ${PANEL_NAMES}`),
        format: z
          .enum(['text', 'json'])
          .default('text')
          .describe(
            'text written for a reader, or the stored JSON (of the panel, or of the whole profile when no panel is given)',
          ),
        offset,
      },
    },
    async (args) =>
      toolAnswer(async () => {
        const profile = await lookUpProfile(context.storage, args.token);
        const asked = args.panel === undefined ? null : findPanel(profile, args.panel);
        if (args.panel !== undefined && asked === null) {
          throw new AppError(
            'APP_ERR_CLI_USAGE',
            `Unknown panel "${args.panel}": choose one of ${profilePanels(profile)
              .map((p) => p.name)
              .join(', ')}.`,
          );
        }
        const text =
          args.format === 'json'
            ? profileJson(profile, asked)
            : profilePanelText(profile, asked ?? defaultPanel(profile));
        return boundedText(text, {
          offset: args.offset,
          hint: args.format === 'json' && !asked ? 'ask for one panel' : 'ask for another panel',
        });
      }),
  );

  server.registerTool(
    'last_error',
    {
      description:
        "The newest request that ended in a server error (5xx: an exception the app did not turn into an HTTP error; an expected 4xx such as a 404 is not one): its request line, the exception chain with each frame mapped to the app's file and line and a few lines of source, and the log records around the error.",
      inputSchema: { offset },
    },
    async (args) =>
      toolAnswer(async () => {
        const [row] = await context.storage.search({ status: '5xx', limit: 1, order: 'arrival', hideProfiler: true });
        if (!row) return 'No stored request ended in a server error (5xx).';
        const profile = await lookUpProfile(context.storage, row.token);
        return boundedText(lastErrorText(profile), {
          offset: args.offset,
          hint: `get_profile token=${profile.token} with one panel`,
        });
      }),
  );
}
