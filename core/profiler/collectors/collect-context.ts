import type { RouteCollection } from '../../routing/route-collection.js';
import type { RequestData } from '../profile.js';
import type { SecretValues } from '../../redaction/index.js';
import type { RequestFacts, ResponseFacts } from '../request-facts.js';
import type { TraceFacts } from '../trace-facts.js';

/** What every panel's collector is given: the request, its trace and its response as recorded, and what was found before it. */
export interface CollectContext {
  request: RequestFacts;
  trace: TraceFacts;
  response: ResponseFacts;
  /** the route table a 404 is explained with */
  routes: RouteCollection;
  /** the secret values met so far, scrubbed from every later text (collectors run in a fixed order) */
  secrets: SecretValues;
  /** the request panel, collected first */
  requestData: RequestData;
  /** ms, the request's duration as recorded */
  duration: number;
  /** the app's entries (RequestTrace.addEntry) by collector name: a panel's collector reads its own */
  entries: ReadonlyMap<string, readonly unknown[]>;
}
