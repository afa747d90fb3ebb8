/**
 * The one redaction policy: every value a profile stores, the terminal prints or a log line shows goes
 * through here. Names (secret-names.ts, app-data-secrets.ts), shapes (secret-shapes.ts and the
 * maintained formats of secret-formats.ts), free text (redact-text.ts), headers, cookies and forms
 * (redact-record.ts), query strings (query-strings.ts), route parameters and paths (route-params.ts),
 * URLs (redact-url.ts), bodies (redact-body.ts), nested data (redact-data.ts), log records and
 * exceptions (redact-log.ts), and values met again elsewhere (secret-values.ts).
 */
export { REDACTED } from './redacted.js';
export { looksSecret } from './secret-names.js';
export { appValueIsSecret } from './app-data-secrets.js';
export { redactShapes } from './secret-shapes.js';
export { SecretValues } from './secret-values.js';
export { redactQueryString, redactText } from './redact-text.js';
export { hasSecretQuery, redactQueryStrings } from './query-strings.js';
export { type RedactKind, redactRecord } from './redact-record.js';
export { isSecretRouteParam, type MatchedRoute, redactPath, redactRouteParams } from './route-params.js';
export { redactUrl } from './redact-url.js';
export { redactBody, unredactableBody } from './redact-body.js';
export { redactData } from './redact-data.js';
export {
  type ExceptionLink,
  type LoggedRecord,
  redactException,
  redactLogMessage,
  redactLogRecord,
} from './redact-log.js';
