"""Frame operations behind the model's tools (SPEC §5.2), run on the paused frame's own thread.

The public face of the package, split by job:
- invocation.py: the Invocation, the state of one AI invocation against one paused frame
  (bindings, request content); handles.py: its handles and remembered values; frame_listing.py:
  its `frames` and `get_frame_code` tools;
- scope.py: running `evaluate` / `execute` code inside the frame, and writing changed locals back;
- context.py: the source around a frame's line (request content and `get_frame_code`);
- tool_error.py: ToolError, a failed tool call as data, and how program exceptions become one;
- plan_values.py: values crossing between the frame and a capability plan (SPEC §10);
- interrupt.py: interrupting an op that outlives its time (the host's `interrupt`, SPEC §9).
Threading and the wire belong to the runner; which frames are the project's is paths.py's rule.
"""

from . import interrupt, plan_values
from .context import code_context
from .invocation import Invocation
from .tool_error import ToolError, program_error

__all__ = ["Invocation", "ToolError", "code_context", "interrupt", "plan_values", "program_error"]
