import { currentRecorder } from './request-scope.js';

/** One entry for the app's panel `panel` (app.panel) in the profile of the request whose code is running; nothing outside one. */
export function record(panel: string, entry: unknown): void {
  currentRecorder()?.add(`app:${String(panel)}`, entry);
}
