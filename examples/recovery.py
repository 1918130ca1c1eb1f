# Recovery: a statement raises what nothing handles; the run pauses there with the frame alive
# and the model decides — complete, repair and retry, or re-raise. Earlier iterations never rerun.
#
#   aiython examples/recovery.py          (needs a model; see the README)
#
# Expected output with the demo's stand-in model (it skips records it cannot read), and on stderr
# what each decision changed:
#   aiython: recovery.py:18: ValueError recovered: completed, skipping the rest of the statement (model: "skipped a record without a readable age")
#   aiython: recovery.py:18: KeyError recovered: completed, skipping the rest of the statement (model: "skipped a record without a readable age")
#   ages: [31, 42]
#   average age: 36.5
import json

records = ['{"name": "Ana", "age": 31}', '{"name": "Bo", "age": "unknown"}', '{"name": "Cy", "age": 42}', '{"name": "Di"}']
ages = []
for raw in records:
    record = json.loads(raw)
    ages.append(int(record["age"]))

print("ages:", ages)
print("average age:", sum(ages) / len(ages))
