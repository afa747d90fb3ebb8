import { RouteCollection } from '../../routing/route-collection.js';

/** A route as it travels to the worker: plain data. */
export interface RouteDefinitionData {
  name: string;
  path: string;
  methods: string[];
  requirements: Record<string, string>;
  defaults: Record<string, string>;
  controller: string;
}

/** The route table as plain data, to hand to the worker once per kernel. */
export function routeTableData(routes: RouteCollection): RouteDefinitionData[] {
  return routes.all().map((route) => ({
    name: route.name,
    path: route.path,
    methods: [...route.methods],
    requirements: { ...route.requirements },
    defaults: { ...route.defaults },
    controller: route.controller,
  }));
}

/** The route tables the worker explains 404s with, by id; a reload adds one, the oldest are forgotten. */
export class RouteTables {
  readonly #tables = new Map<number, RouteCollection>();

  set(id: number, routes: readonly RouteDefinitionData[]): void {
    const collection = new RouteCollection();
    for (const { name, ...definition } of routes) collection.add(name, definition);
    this.#tables.set(id, collection);
    for (const old of this.#tables.keys()) if (this.#tables.size > 8 && old !== id) this.#tables.delete(old);
  }

  get(id: number): RouteCollection {
    return this.#tables.get(id) ?? new RouteCollection();
  }
}
