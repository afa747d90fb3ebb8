import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { redactQuery } from '../../../../core/profiler/collectors/redact-sql.js';
import { runnableSql } from '../../../../core/profiler/collectors/runnable-sql.js';
import { statementShape } from '../../../../core/debug/statement-shape.js';
import { SecretValues } from '../../../../core/redaction/index.js';

const none = () => new SecretValues();

const redaction = suite("redactQuery: a query's secret parameters and literals are replaced before storage");

redaction(
  'when a placeholder is compared to or stored in a secret-named column, then its parameter is redacted and named',
  () => {
    const compared = redactQuery(
      'pg',
      'SELECT id FROM users WHERE email = $1 AND password_hash = $2',
      ['ann@example.com', 'x1y2z3'],
      none(),
    );
    assert.equal(compared.params, ['ann@example.com', '[REDACTED]']);
    assert.equal(compared.redacted, ['$2']);
    const inserted = redactQuery(
      'pg',
      'INSERT INTO users (email, api_token, name) VALUES ($1, $2, $3), ($4, $5, $6) RETURNING id',
      ['a', 'tok-a', 'A', 'b', 'tok-b', 'B'],
      none(),
    );
    assert.equal(inserted.params, ['a', '[REDACTED]', 'A', 'b', '[REDACTED]', 'B']);
    const updated = redactQuery('mysql2', 'UPDATE users SET `password` = ? WHERE id = ?', ['s3cret-pw', 7], none());
    assert.equal(updated.params, ['[REDACTED]', 7]);
    assert.equal(updated.redacted, ['parameter 1']);
  },
);

redaction(
  'when a literal is compared to a secret column or repeats a redacted parameter, then the statement holds [REDACTED] instead',
  () => {
    const literal = redactQuery(
      'pg',
      "SELECT 1 FROM users WHERE name = 'ann' AND password = 'it''s-secret'",
      [],
      none(),
    );
    assert.is(literal.sql, "SELECT 1 FROM users WHERE name = 'ann' AND password = '[REDACTED]'");
    assert.equal(literal.redacted, ['a literal (password)']);
    // mysql2's query() inlines its values: the literal is the parameter's own text
    const inlined = redactQuery('mysql2', "SELECT id FROM users WHERE secret = 'abc\\'d'", ["abc'd"], none());
    assert.is(inlined.sql, "SELECT id FROM users WHERE secret = '[REDACTED]'");
  },
);

redaction(
  'when a value is a secret the request already showed, or a credential of a known format, then it is redacted whatever its column',
  () => {
    const secrets = new SecretValues();
    secrets.add('query-secret-value');
    const known = redactQuery('pg', 'SELECT * FROM logs WHERE note = $1', ['query-secret-value'], secrets);
    assert.equal(known.params, ['[REDACTED]']);
    const github = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const format = redactQuery('pg', `SELECT * FROM keys WHERE value = '${github}' OR note = $1`, [github], none());
    assert.not.ok(format.sql.includes(github), format.sql);
    assert.not.ok(JSON.stringify(format.params).includes(github));
  },
);

redaction('when nothing is secret, then statement and parameters are kept as given', () => {
  const kept = redactQuery('pg', 'SELECT name FROM users WHERE id = $1 -- password = $9', [1], none());
  assert.equal(kept, { sql: 'SELECT name FROM users WHERE id = $1 -- password = $9', params: [1], redacted: [] });
});

redaction.run();

const runnable = suite("runnableSql: parameters inlined with the driver's own quoting");

runnable(
  "when pg parameters are inlined, then strings are quoted with doubled quotes, backslashes in E'', and $n inside literals is left alone",
  () => {
    assert.is(
      runnableSql('pg', "SELECT $1, $2, $3, $4, '$1' WHERE a = $10", ["it's", 'a\\b', null, true, 0, 0, 0, 0, 0, 42.5]),
      "SELECT 'it''s',  E'a\\\\b', NULL, TRUE, '$1' WHERE a = 42.5",
    );
  },
);

runnable(
  'when mysql2 parameters are inlined, then strings take backslash escapes and ? inside literals is left alone',
  () => {
    assert.is(
      runnableSql('mysql2', "SELECT ?, '?', ?, ?", ["it's\n", [1, 2], false]),
      "SELECT 'it\\'s\\n', '?', 1, 2, false",
    );
  },
);

runnable.run();

const shape = suite('statementShape: one statement whatever its values');

shape(
  'when only literals, placeholders, spacing or the length of an IN list differ, then the shape is the same',
  () => {
    assert.is(
      statementShape("SELECT *  FROM t WHERE id = 1 AND name = 'a'"),
      statementShape("SELECT * FROM t\nWHERE id = 22 AND name = 'b''c'"),
    );
    assert.is(statementShape('SELECT * FROM t WHERE id IN ($1, $2, $3)'), 'SELECT * FROM t WHERE id IN (?)');
    assert.is.not(statementShape('SELECT a FROM t'), statementShape('SELECT b FROM t'));
  },
);

shape.run();
