import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AppError } from '../core/errors.js';
import { explain } from '../core/routing/explain.js';
import { renderExplainText, renderRouteTable } from '../render/text/index.js';
import { boundedText } from './bounded-text.js';
import type { McpContext } from './mcp-context.js';
import { MODEL_TEXT } from './profile-text.js';
import { toolAnswer } from './tool-answer.js';

export function registerRouteTools(server: McpServer, context: McpContext): void {
  server.registerTool(
    'list_routes',
    {
      description:
        "The app's routes in matching order (the profiler's included): name, methods, path, requirements, controller.",
      inputSchema: {
        offset: z.number().int().min(0).optional().describe('where to start, when an earlier answer was cut'),
      },
    },
    async (args) =>
      toolAnswer(async () => {
        const list = (await context.routes()).all().map((r) => ({
          name: r.name,
          methods: [...r.methods],
          path: r.path,
          requirements: { ...r.requirements },
          defaults: { ...r.defaults },
          controller: r.controller,
        }));
        return boundedText(renderRouteTable(list, MODEL_TEXT), { offset: args.offset });
      }),
  );

  server.registerTool(
    'explain_route',
    {
      description:
        'Which route a method and path reach, as `app routes match` says: the matching route, or for a miss (a 404 or 405) why each close route did not match (path, requirement, method, trailing slash).',
      inputSchema: {
        path: z
          .string()
          .startsWith('/', 'a path starts with "/"')
          .describe('the path, e.g. /hello/world (a query is ignored)'),
        method: z.string().min(1).default('GET').describe('the HTTP method'),
        offset: z.number().int().min(0).optional().describe('where to start, when an earlier answer was cut'),
      },
    },
    async (args) =>
      toolAnswer(async () => {
        if (!args.path.startsWith('/'))
          throw new AppError('APP_ERR_CLI_USAGE', `Invalid path "${args.path}": paths start with "/".`);
        const explanations = explain(
          await context.routes(),
          args.method.toUpperCase(),
          args.path.replace(/[?#][\s\S]*$/, ''),
        );
        return boundedText(renderExplainText(explanations, MODEL_TEXT), { offset: args.offset });
      }),
  );
}
