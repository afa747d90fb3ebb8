/**
 * The one catalogue of appkernel's error codes. A code never changes once
 * released; its wording may. Domain errors carry data and know nothing of HTTP:
 * only the router listener turns routing errors into 404/405 HTTP errors.
 */
export const ERROR_CODES = {
  APP_ERR_ROUTING_NOT_FOUND: 'No route matches the path (resource not found).',
  APP_ERR_ROUTING_METHOD_NOT_ALLOWED: 'Routes match the path, but none allows the method.',
  APP_ERR_ROUTING_BAD_DEFINITION: 'A route definition is invalid (syntax, duplicate name, bad requirement).',
  APP_ERR_ROUTING_UNKNOWN_ROUTE: 'URL generation was asked for a route name that does not exist.',
  APP_ERR_ROUTING_MISSING_PARAMETERS: 'URL generation lacks mandatory parameters.',
  APP_ERR_ROUTING_INVALID_PARAMETER: 'URL generation got a parameter that fails its requirement.',
  APP_ERR_HTTP: 'An HTTP error with a status code, for the client.',
  APP_ERR_HTTP_BAD_REQUEST: 'The request body could not be parsed (not UTF-8, not JSON, not a form).',
  APP_ERR_KERNEL_CONTROLLER: 'The matched controller could not be resolved.',
  APP_ERR_PROFILER_BAD_TOKEN: 'A profile token is malformed.',
  APP_ERR_PROFILER_TOKEN_NOT_FOUND: 'No profile has this token.',
  APP_ERR_PROFILER_PANEL_NOT_FOUND: 'The profile has no such panel.',
  APP_ERR_PROFILER_STORE_CORRUPT: 'A stored profile or index record cannot be read.',
  APP_ERR_PROFILER_STORE_URL: 'The profile database URL is malformed.',
  APP_ERR_PROFILER_STORE_UNAVAILABLE: 'The profile database cannot be reached or used.',
  APP_ERR_PROFILER_STORE_AUTH: 'The profile database refused the user or password.',
  APP_ERR_PROFILER_STORE_NO_DATABASE: 'The profile database named in the URL does not exist.',
  APP_ERR_PROFILER_STORE_SCHEMA: 'The profile database holds a schema newer than this version knows.',
  APP_ERR_APP_LOAD: 'The app file could not be loaded.',
  APP_ERR_APP_INVALID: 'The app file does not export a valid app.',
  APP_ERR_CLI_USAGE: 'A command was given bad arguments or options.',
  APP_ERR_INIT_NOT_EMPTY: 'app init was pointed at a folder that already holds other files.',
  APP_ERR_SERVE_LISTEN: 'The server could not listen (port in use, bad host).',
  APP_ERR_SERVE_EXPOSED: 'The profiler would be exposed on a non-loopback address.',
  APP_ERR_REPLAY: 'A recorded request could not be replayed.',
  APP_ERR_SNAPSHOT_MISMATCH: 'A structural snapshot differs from the stored one.',
  APP_ERR_DEBUG_STOPWATCH: 'A stopwatch span was given a bad name or stopped without being started.',
  APP_ERR_APP_PANEL: 'A custom profiler panel was defined with a bad name or shape.',
  APP_ERR_SNAPSHOT_MISSING: 'A snapshot is missing and may not be written (CI).',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Each class names itself on its prototype, not per instance: a class field would define `name`
 * again at every level of every error built (a 404 builds two).
 */
export class AppError extends Error {
  static {
    this.prototype.name = 'AppError';
  }
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The path matches no route. `path` is the one named in the message (for GET/HEAD the slash-toggled retry path). */
export class ResourceNotFoundError extends AppError {
  static {
    this.prototype.name = 'ResourceNotFoundError';
  }
  constructor(readonly path: string) {
    super('APP_ERR_ROUTING_NOT_FOUND', `No routes found for "${path}"`);
  }
}

/** Routes match the path but not the method; `allowed` is upper-cased, in route order, without duplicates. */
export class MethodNotAllowedError extends AppError {
  static {
    this.prototype.name = 'MethodNotAllowedError';
  }
  constructor(
    readonly path: string,
    readonly allowed: readonly string[],
  ) {
    super(
      'APP_ERR_ROUTING_METHOD_NOT_ALLOWED',
      `No route allows this method for "${path}" (allowed: ${allowed.join(', ')}).`,
    );
  }
}

export class RouteDefinitionError extends AppError {
  static {
    this.prototype.name = 'RouteDefinitionError';
  }
  constructor(
    readonly route: string,
    readonly problem: string,
  ) {
    super('APP_ERR_ROUTING_BAD_DEFINITION', `Route "${route}": ${problem}`);
  }
}

export class RouteNotFoundError extends AppError {
  static {
    this.prototype.name = 'RouteNotFoundError';
  }
  constructor(readonly route: string) {
    super(
      'APP_ERR_ROUTING_UNKNOWN_ROUTE',
      `Unable to generate a URL for the named route "${route}" as such route does not exist.`,
    );
  }
}

export class MissingParametersError extends AppError {
  static {
    this.prototype.name = 'MissingParametersError';
  }
  constructor(
    readonly route: string,
    readonly missing: readonly string[],
  ) {
    super(
      'APP_ERR_ROUTING_MISSING_PARAMETERS',
      `Some mandatory parameters are missing ("${missing.join('", "')}") to generate a URL for route "${route}".`,
    );
  }
}

export class InvalidParameterError extends AppError {
  static {
    this.prototype.name = 'InvalidParameterError';
  }
  constructor(
    readonly route: string,
    readonly parameter: string,
    readonly requirement: string,
    readonly value: string,
  ) {
    super(
      'APP_ERR_ROUTING_INVALID_PARAMETER',
      `Parameter "${parameter}" for route "${route}" must match "${requirement}" ("${value}" given) to generate a corresponding URL.`,
    );
  }
}

/** An error meant for the client: status and headers travel with it. */
export class HttpError extends AppError {
  static {
    this.prototype.name = 'HttpError';
  }
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    options?: ErrorOptions,
    code: ErrorCode = 'APP_ERR_HTTP',
  ) {
    super(code, message, options);
  }
}

export class NotFoundHttpError extends HttpError {
  static {
    this.prototype.name = 'NotFoundHttpError';
  }
  constructor(message: string, options?: ErrorOptions) {
    super(404, message, {}, options);
  }
}

export class MethodNotAllowedHttpError extends HttpError {
  static {
    this.prototype.name = 'MethodNotAllowedHttpError';
  }
  constructor(
    readonly allowed: readonly string[],
    message: string,
    options?: ErrorOptions,
  ) {
    super(405, message, { Allow: allowed.join(', ') }, options);
  }
}

export class BadRequestError extends HttpError {
  static {
    this.prototype.name = 'BadRequestError';
  }
  constructor(message: string, status = 400, options?: ErrorOptions) {
    super(status, message, {}, options, 'APP_ERR_HTTP_BAD_REQUEST');
  }
}

/** The app file failed to load: where (when the error says), and a report of lines to show under the message. */
export class AppLoadError extends AppError {
  static {
    this.prototype.name = 'AppLoadError';
  }
  constructor(
    message: string,
    readonly location: { file: string; line: number; column: number } | null,
    readonly details: string,
    options?: ErrorOptions,
  ) {
    super('APP_ERR_APP_LOAD', message, options);
  }
}
