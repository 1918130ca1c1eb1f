# bench/imports: exercises the copied pygments package as project code: ten lexers and two
# formatters over a real source file (pygments' own lexer module), so its modules are imported
# and their code runs. Prints the sizes of what it produced.
import os
import sys

from pygments import highlight
from pygments.formatters import HtmlFormatter, TerminalFormatter
from pygments.lexers import get_lexer_by_name

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "pygments", "lexer.py"), encoding="utf-8") as f:
    text = f.read()
sizes = []
for name in ["python", "c", "javascript", "rust", "bash", "json", "yaml", "html", "css", "sql"]:
    lexer = get_lexer_by_name(name)
    sizes.append(len(highlight(text if name == "python" else text[:4000], lexer, HtmlFormatter())))
sizes.append(len(highlight(text, get_lexer_by_name("python"), TerminalFormatter())))
print(len(sys.modules) > 0, sizes)
