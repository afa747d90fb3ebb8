import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AppError } from '../core/errors.js';
import { invalidTargetMessage, parseTarget } from '../core/profiler/replay-origin.js';
import { renderProfileDiffText } from '../render/text/index.js';
import { boundedText } from './bounded-text.js';
import type { McpContext } from './mcp-context.js';
import { lookUpProfile } from './profile-lookup.js';
import { MODEL_TEXT } from './profile-text.js';
import { toolAnswer } from './tool-answer.js';

export function registerReplayTool(server: McpServer, context: McpContext): void {
  server.registerTool(
    'replay',
    {
      description:
        'Send a recorded request again to the running app server, as `app replay --diff`: the new status and token, and how the new profile differs from the recorded one (status, route, exceptions, log by level, database queries, events, durations). Sent only to the server that recorded it (it must prove it) unless a target is given. Values redacted when recorded are left out; a request whose recorded body is incomplete (a value redacted in it, cut when recorded) is not sent.',
      inputSchema: {
        token: z.string().min(1).describe('a token from list_profiles, or "latest"'),
        target: z.string().optional().describe('http(s) origin to send to instead, e.g. http://127.0.0.1:9000'),
      },
    },
    async (args) =>
      toolAnswer(async () => {
        if (args.target !== undefined && parseTarget(args.target) === null)
          throw new AppError('APP_ERR_CLI_USAGE', invalidTargetMessage(args.target));
        const recorded = await lookUpProfile(context.storage, args.token);
        const { diffReplay, replay } = await import('../core/profiler/replay.js');
        const result = await replay(recorded, { target: args.target, fetchProfile: true });
        const lines = [
          `${recorded.method} ${result.url} -> ${result.status}${result.token ? ` (token ${result.token})` : ''}`,
        ];
        if (result.originReplaced)
          lines.push(
            `Sent to the server that recorded the request, not to the Host it was sent with (${result.originReplaced}).`,
          );
        if (result.omitted.length) lines.push(`Left out (redacted when recorded): ${result.omitted.join(', ')}.`);
        if (result.profile) lines.push(renderProfileDiffText(diffReplay(recorded, result.profile), MODEL_TEXT));
        else
          lines.push(
            `The new profile could not be fetched (${result.profileProblem ?? 'no reason given'}): nothing to compare.`,
          );
        return boundedText(lines.join('\n'));
      }),
  );
}
