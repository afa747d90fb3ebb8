import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { reasonPhrase } from '../../../core/http/response.js';

const test = suite("reasonPhrase: the status line's words");

test('when the status is one RFC 9110 names, then its phrase, not an older one', () => {
  assert.is(reasonPhrase(404), 'Not Found');
  assert.is(reasonPhrase(413), 'Content Too Large');
  assert.is(reasonPhrase(422), 'Unprocessable Content');
});

test("when RFC 9110 does not name it but Node does, then Node's phrase (418, 451)", () => {
  assert.is(reasonPhrase(418), "I'm a Teapot");
  assert.is(reasonPhrase(451), 'Unavailable For Legal Reasons');
});

test('when nobody names it, then the phrase of its class', () => {
  assert.is(reasonPhrase(499), 'Client Error');
  assert.is(reasonPhrase(599), 'Server Error');
});

test.run();
