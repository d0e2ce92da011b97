import { expect, it } from 'vitest';
import { decodeJson, encodeJson } from './json-codec.ts';

it('round-trips typed arrays, ArrayBuffers and plain data', () => {
  const value = {
    bytes: new Uint8Array([0, 255, 128]),
    words: new Uint16Array([65535, 1]),
    signed: new Int32Array([-5]),
    buffer: new Uint8Array([1, 2]).buffer,
    view: new Uint8Array([9, 9, 1, 2, 9]).subarray(2, 4),
    list: [1, 'a', null, { nested: true }],
  };
  const back = decodeJson(encodeJson(value)) as typeof value;
  expect(back.bytes).toEqual(value.bytes);
  expect(back.words).toBeInstanceOf(Uint16Array);
  expect([...back.words]).toEqual([65535, 1]);
  expect([...back.signed]).toEqual([-5]);
  expect(back.buffer).toBeInstanceOf(ArrayBuffer);
  expect([...new Uint8Array(back.buffer)]).toEqual([1, 2]);
  expect([...back.view]).toEqual([1, 2]);
  expect(back.list).toEqual(value.list);
});

it('leaves look-alike objects alone', () => {
  expect(decodeJson('{"base64":"AA==","other":1}')).toEqual({ base64: 'AA==', other: 1 });
});
