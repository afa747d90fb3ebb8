import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ProfileFeed } from '../core/profiler/profile-feed.js';
import type { ProfileStore } from '../core/profiler/storage/profile-storage.js';
import { PROFILES_URI } from './profile-resources.js';

const POLL_MS = 250;

/**
 * Polls the store as `profiles tail` does; on new profiles it tells the client the resource list
 * changed, and a client subscribed to appkernel://profiles that it was updated. Returns the stop.
 */
export function notifyNewProfiles(server: McpServer, storage: ProfileStore): () => void {
  const subscribed = new Set<string>();
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  const feed = new ProfileFeed(storage, { hideProfiler: true });
  let busy = false;
  const poll = async () => {
    if (busy) return;
    busy = true;
    try {
      const fresh = await feed.next();
      if (fresh.length === 0 || !server.isConnected()) return;
      server.sendResourceListChanged();
      if (subscribed.has(PROFILES_URI)) await server.server.sendResourceUpdated({ uri: PROFILES_URI });
    } catch {
      // A store briefly away (a database restarting) is polled again at the next tick.
    } finally {
      busy = false;
    }
  };
  void poll();
  const timer = setInterval(() => void poll(), POLL_MS);
  return () => clearInterval(timer);
}
