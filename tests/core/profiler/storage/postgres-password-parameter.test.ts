import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AppError } from '../../../../core/errors.js';
import { displayUrl, parseDatabaseUrl } from '../../../../core/profiler/storage/postgres-errors.js';
import { openPostgresStorage } from '../../../../core/profiler/storage/postgres-storage.js';
import { startTempPostgres } from '../../../helpers/temp-postgres.js';

const test = suite('a profile database URL giving its password as a parameter (?password=) never shows it');

test('when the URL is shown, then its password parameters are left out and the other parameters kept', () => {
  const shown = displayUrl(
    new URL('postgres://db-host:5432/profiles?user=alice&password=hunter2&sslmode=require&sslpassword=keypass'),
  );
  assert.is(shown, 'postgres://db-host:5432/profiles?user=alice&sslmode=require');
  assert.is(
    displayUrl(new URL('postgres://alice:hunter2@db-host/profiles?PassWord=hunter2')),
    'postgres://alice@db-host/profiles',
  );
});

test('when such a URL is malformed, then the error names it without the password', () => {
  let error: unknown;
  try {
    parseDatabaseUrl('postgres://db host/profiles?user=alice&password=hunter2');
  } catch (caught) {
    error = caught;
  }
  assert.instance(error, AppError);
  assert.is((error as AppError).code, 'APP_ERR_PROFILER_STORE_URL');
  assert.not.match((error as AppError).message, /hunter2/);
  assert.match((error as AppError).message, /password=\*\*\*/);
});

test('when the user and a wrong password are parameters, then the refusal names that user and never the password', async () => {
  const server = await startTempPostgres();
  const url = new URL(server.url);
  const user = url.username;
  url.username = '';
  url.password = '';
  url.search = `?user=${user}&password=wrong-secret`;
  try {
    await openPostgresStorage({ url: url.toString(), onWarning: () => {} });
    assert.unreachable('opened');
  } catch (error) {
    assert.instance(error, AppError);
    assert.is((error as AppError).code, 'APP_ERR_PROFILER_STORE_AUTH');
    assert.match((error as AppError).message, new RegExp(`refused user "${user}": wrong user or password`));
    assert.not.match((error as AppError).message, /wrong-secret/);
  } finally {
    await server.remove();
  }
});

test.run();
