"""Type contracts for all annotated project code (`type_contracts = "all"` in aiython.toml; SPEC
§6's contracts, which AI results get, applied to normal Python).

- sites.py: the AST rewrite that puts a check at each annotated assignment, annotated
  parameter and annotated return (preparation/program_code.py calls it on the tree it compiles,
  after the checkpoints, so their selection and ids are the same with or without it);
- runtime.py: the object those checks call, bound in place of code_constants.CONTRACTS.

With `type_contracts = "ai"` (the default) nothing here is imported and the prepared code is
exactly the code of a run without the key (the preparation cache's key is the same too).

Nothing is imported here: importers name the module they use.
"""
