"""Pauses (SPEC §4.3, §5): a thread or an asyncio task stopped at an AI block or a failed
checkpoint while the host runs the model loop, and what the program calls to get there.

- runtime.py: the object the rewritten program calls at each AI block (`NAME.block(N)`);
  block_call.py: a sync block's call as C code, so its exception's traceback is the program's;
- pause.py: a pause: announcing and serving it, the open pauses (recovery/pause.py's
  RecoveryPause is one); block_request.py: what its request says of an AI block;
- ops.py: one `op` message run on the paused frame's thread and answered, and the block's value;
- mailbox.py: `aiython.group()` / `join()`, the program's side of the mailbox (SPEC §8), whose
  joined threads and tasks get the mailbox tools in their pauses.

Nothing is imported here: importers name the module they use.
"""
