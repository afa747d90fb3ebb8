import { RouteDefinitionError } from '../errors.js';
import type { Route, RouteDefinition } from './route.js';
import { compileRoute } from './route-compiler.js';

/** Routes in definition order, which is matching order: the first route that matches wins. */
export class RouteCollection {
  readonly #routes: Route[] = [];
  readonly #byName = new Map<string, Route>();

  /** @throws RouteDefinitionError for a duplicate name or an invalid path, requirement or method */
  add(name: string, definition: RouteDefinition): this {
    if (this.#byName.has(name)) throw new RouteDefinitionError(name, 'a route with this name is already defined');
    const route = compileRoute(name, definition);
    this.#routes.push(route);
    this.#byName.set(name, route);
    return this;
  }

  all(): readonly Route[] {
    return this.#routes;
  }

  get(name: string): Route | undefined {
    return this.#byName.get(name);
  }

  get size(): number {
    return this.#routes.length;
  }
}
