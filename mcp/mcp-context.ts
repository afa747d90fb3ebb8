import type { ProfileStore } from '../core/profiler/storage/profile-storage.js';
import type { RouteCollection } from '../core/routing/route-collection.js';

/** What the MCP server's tools read: the profile store, and the app's routes (the profiler's included). */
export interface McpContext {
  storage: ProfileStore;
  /** the routes in matching order, the app loaded when needed (`app mcp`) or the one being served */
  routes(): Promise<RouteCollection>;
}
