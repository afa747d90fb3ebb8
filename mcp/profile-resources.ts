import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { renderProfileListText } from '../render/text/index.js';
import { defaultPanel } from '../panels/registry.js';
import { boundedText } from './bounded-text.js';
import type { McpContext } from './mcp-context.js';
import { lookUpProfile } from './profile-lookup.js';
import { MODEL_TEXT, profilePanelText } from './profile-text.js';

/** The list resource a client subscribes to, to hear of each new profile. */
export const PROFILES_URI = 'appkernel://profiles';
const LISTED = 50;

export function registerProfileResources(server: McpServer, context: McpContext): void {
  server.registerResource(
    'profiles',
    PROFILES_URI,
    {
      description: `The ${LISTED} newest profiles (the profiler's own requests left out); subscribe to hear of new ones.`,
      mimeType: 'text/plain',
    },
    async (uri) => {
      const rows = await context.storage.search({ limit: LISTED, hideProfiler: true });
      const text = rows.length === 0 ? 'No profile stored yet.' : renderProfileListText(rows, MODEL_TEXT);
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: boundedText(text) }] };
    },
  );

  server.registerResource(
    'profile',
    new ResourceTemplate(`${PROFILES_URI}/{token}`, {
      list: async () => ({
        resources: (await context.storage.search({ limit: LISTED, hideProfiler: true })).map((row) => ({
          uri: `${PROFILES_URI}/${row.token}`,
          name: `${row.method} ${row.url} -> ${row.status}`,
          mimeType: 'text/plain',
        })),
      }),
    }),
    {
      description:
        'One stored profile: its exception panel when it failed with one, else its request panel (get_profile gives any panel).',
      mimeType: 'text/plain',
    },
    async (uri, variables) => {
      const token = String(variables.token);
      const profile = await lookUpProfile(context.storage, token);
      const text = profilePanelText(profile, defaultPanel(profile));
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'text/plain',
            text: boundedText(text, { hint: `get_profile token=${token} with one panel` }),
          },
        ],
      };
    },
  );
}
