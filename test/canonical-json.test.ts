// Canonical JSON (SPEC §5.1, §11): sorted keys at every level, compact, undefined members dropped,
// and a value JSON cannot hold refused with the path where it is (the first in sorted order).

import assert from "node:assert/strict";
import { test } from "node:test";
import { canonicalJson, fixedValue, plainJson } from "../src/canonical-json.js";

test("keys sorted at every level, compact, undefined members dropped and undefined items null", () => {
  assert.equal(canonicalJson({ b: [3, undefined, { z: 1, a: "é" }], a: true, c: undefined, d: null }), '{"a":true,"b":[3,null,{"a":"é","z":1}],"d":null}');
  assert.equal(canonicalJson({ y: 1, x: 2 }), canonicalJson({ x: 2, y: 1 }));
});

test("a value JSON cannot hold is named by its path, the first one in the encoder's order", () => {
  assert.throws(() => canonicalJson({ b: NaN, a: [1, { c: Infinity }] }), { name: "TypeError", message: "canonical JSON: $.a[1].c is Infinity, which JSON cannot hold" });
  assert.throws(() => canonicalJson([0, () => 1]), { message: "canonical JSON: $[1] is a function, which JSON cannot hold" });
  assert.throws(() => canonicalJson({ n: 10n }), { message: "canonical JSON: $.n is a bigint, which JSON cannot hold" });
});

test("a fixed value is deep-frozen and both encoders give the text they give for an equal copy", () => {
  const make = () => [{ type: "function", function: { name: "finish", parameters: { type: "object", properties: { b: { enum: ["x", "é"] }, a: { type: "string" } } } } }];
  const fixed = fixedValue(make());
  assert.ok(Object.isFrozen(fixed) && Object.isFrozen(fixed[0].function.parameters.properties.b.enum));
  assert.throws(() => {
    (fixed[0].function as { name: string }).name = "changed";
  }, TypeError);
  for (let i = 0; i < 2; i++) {
    assert.equal(canonicalJson(fixed), canonicalJson(make()));
    assert.equal(canonicalJson({ tools: fixed, z: 1 }), canonicalJson({ z: 1, tools: make() }));
    assert.equal(plainJson(fixed), JSON.stringify(make()));
  }
  assert.equal(plainJson({ a: 1 }), '{"a":1}');
});
