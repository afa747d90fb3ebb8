import { serialisedJson, serialiseOnce } from '../../debug/request-recording.js';
import type { ConfigData } from '../panel-data.js';
import { looksSecret, REDACTED, redactText, redactUrl, type SecretValues } from '../../redaction/index.js';
import { appEntries } from './app-entries.js';
import type { CollectContext } from './collect-context.js';

export const CONFIG_COLLECTOR = 'config';

/** The panel made of a configuration recorded by every request (serialiseOnce), for requests that carried no secret value. */
const builtOnce = new WeakMap<object, ConfigData>();

/**
 * The configuration panel: versions, app file, options, store, and the environment with secrets replaced.
 * The configuration `app serve` records is one object for every request: when the request carried no
 * secret value to scrub, its panel is the one built the first time, JSON text included (serialiseOnce),
 * which the stored form splices in as it is.
 */
export function collectConfig({ entries, secrets }: CollectContext): ConfigData | null {
  const recorded = appEntries(entries, CONFIG_COLLECTOR)[0] as ConfigData | undefined;
  if (!recorded) return null;
  if (secrets.size > 0 || serialisedJson(recorded) === undefined) return redactConfig(recorded, secrets);
  let built = builtOnce.get(recorded);
  if (built === undefined) builtOnce.set(recorded, (built = serialiseOnce(redactConfig(recorded, secrets))));
  return built;
}

function redactConfig(recorded: ConfigData, secrets: SecretValues): ConfigData {
  const redacted: string[] = [];
  const env: Record<string, string> = Object.create(null);
  for (const name of Object.keys(recorded.env ?? {}).sort()) {
    const value = String(recorded.env[name]);
    if (looksSecret(name)) {
      env[name] = REDACTED;
      redacted.push(`env ${name}`);
      continue;
    }
    const clean = /^[a-z][a-z0-9+.-]*:\/\//i.test(value)
      ? redactUrl(value, secrets, [])
      : secrets.scrub(redactText(redactJson(value)));
    // A value read back from a stored record was redacted when it was written: it is listed again.
    if (clean !== value || value.includes(REDACTED)) redacted.push(`env ${name}`);
    env[name] = clean;
  }
  const options: Record<string, string> = Object.create(null);
  for (const name of Object.keys(recorded.options ?? {}))
    options[name] = secrets.scrub(redactText(String(recorded.options[name])));
  return {
    node: String(recorded.node),
    appkernel: String(recorded.appkernel),
    app: recorded.app ? { name: String(recorded.app.name), version: String(recorded.app.version) } : null,
    appFile: recorded.appFile === null ? null : String(recorded.appFile),
    options,
    store: recorded.store === null ? null : redactUrl(String(recorded.store), secrets, []),
    env,
    redacted,
  };
}

/** A value holding JSON (some tools pass settings so): structured blobs often carry credentials under any key, so none is shown. */
function redactJson(value: string): string {
  if (!/^\s*[[{]/.test(value)) return value;
  try {
    JSON.parse(value);
  } catch {
    return value;
  }
  return REDACTED;
}
