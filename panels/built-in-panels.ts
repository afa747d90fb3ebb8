import { configPanel } from './built-in/config.js';
import { databasePanel } from './built-in/database.js';
import { dumpPanel } from './built-in/dump.js';
import { eventsPanel } from './built-in/events.js';
import { exceptionPanel } from './built-in/exception.js';
import { httpClientPanel } from './built-in/http-client.js';
import { logPanel } from './built-in/log.js';
import { requestPanel } from './built-in/request.js';
import { routerPanel } from './built-in/router.js';
import { securityPanel } from './built-in/security.js';
import { timePanel } from './built-in/time.js';
import type { PanelDefinition } from './panel-definition.js';

/** The profiler's own panels, in the menu's order. Adding one: its module in built-in/ and one line here. */
export const BUILT_IN_PANELS: readonly PanelDefinition[] = [
  requestPanel,
  timePanel,
  exceptionPanel,
  logPanel,
  eventsPanel,
  routerPanel,
  securityPanel,
  httpClientPanel,
  databasePanel,
  dumpPanel,
  configPanel,
];
