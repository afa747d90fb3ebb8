import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appVariables, serveConfig } from '../../server/serve-config.js';

const test = suite("the configuration panel's environment: the app's own variables, not the host's");

test("when the project names variables in .env files and the process holds others, then only the app's are listed", () => {
  const root = mkdtempSync(join(tmpdir(), 'appkernel-app-variables-'));
  const set = {
    SHOP_DB_HOST: 'db.local',
    FEATURE_FLAGS: 'beta',
    APP_GREETING: 'hi',
    MY_SHOP_MODE: 'fast',
    UNRELATED_HOST_VAR: 'x',
  };
  try {
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: '@acme/my-shop', version: '1.2.3' }));
    writeFileSync(join(root, '.env'), '# comment\nSHOP_DB_HOST=db.local\nexport FEATURE_FLAGS="beta"\n');
    writeFileSync(join(root, '.env.local'), 'LOCAL_ONLY=1\r\n');
    Object.assign(process.env, set);
    const config = serveConfig({ appFile: join(root, 'app.config.mjs'), root, storeDir: null, options: {} });
    assert.equal(
      Object.keys(config.env)
        .filter((name) => name in set)
        .sort(),
      ['APP_GREETING', 'FEATURE_FLAGS', 'MY_SHOP_MODE', 'SHOP_DB_HOST'],
    );
    for (const host of ['PATH', 'HOME', 'UNRELATED_HOST_VAR']) assert.not.ok(host in config.env, host);
    const own = appVariables(root, null);
    assert.ok(own('LOCAL_ONLY') && own('NODE_ENV') && own('APPKERNEL_EDITOR'));
    assert.not.ok(own('MY_SHOP_MODE'), 'without a package name, no name prefix');
  } finally {
    for (const name of Object.keys(set)) delete process.env[name];
    rmSync(root, { recursive: true, force: true });
  }
});

test('when the project folder is missing, then no .env names, and no error', () => {
  const own = appVariables(join(tmpdir(), 'appkernel-no-such-folder-e2'), null);
  assert.ok(own('APP_X'));
  assert.not.ok(own('PATH'));
});

test.run();
