"""Recovery at run time (SPEC §4.2): what an instrumented checkpoint's `except` path calls.

instrument.py wraps each checkpoint statement in a `try` whose handler calls the process's
CheckpointRuntime (checkpoints.py, bound in builtins). A failure is NOT put to the model (the
original exception propagates untouched) when it is not eligible (eligibility.py), when it
already carries a decision (one of decision.py's notes: an outer checkpoint never asks again), or
when a calling frame would see it first (callers.py). Otherwise a RecoveryPause (pause.py) asks
the decision source (sources.py: the host over the channel; tests use their own,
tests/support.py). At most MAX_CONSULTATIONS per failing statement execution; after that, and
after `reraise`, a failed invocation (`fail`) or a bridge fault, the ORIGINAL exception
propagates with a note saying why. Partial effects are never rolled back.

The package, by job:
- instrument.py: the checkpoint transform, the plan's checkpoint table applied to a module's AST;
- checkpoints.py: CheckpointRuntime, the handlers' calls and each open failure's state;
- eligibility.py: which exceptions may be put to the model at all;
- callers.py: the frames around a failure: whose handler sees it first, whether a retry would
  run another project function again;
- pause.py: RecoveryPause, one consultation (mode "recovery"), and the target's expected type;
- decision.py: Decision and the notes that mark an exception as decided;
- sources.py: where decisions come from: the host (HostDecisions), and the process's runtime,
  a DeferredRuntime until a statement first fails (so that a run whose checkpoints never fail
  never loads checkpoints.py and what it imports);
- bytecode/: on 3.11, instrument.py's handlers added to an imported module's plain code object
  where the layout can be proven, so the module is not compiled twice.

Nothing is imported here: each importer names the module it uses, and the transform
(instrument.py) loads none of the runtime.
"""
