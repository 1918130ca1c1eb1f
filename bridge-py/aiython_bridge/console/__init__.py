"""The interactive console (SPEC §2): CPython's console that also accepts AI syntax.

interpreter.py is the console itself (code.InteractiveConsole, or 3.13's pyrepl console, whose
compile step hands input CPython rejects to the host's frontend); session.py starts it the way
CPython starts its own: for `aiython` on a terminal with the banner, PYTHONSTARTUP and
sys.__interactivehook__, and after a program under `-i` from inside CPython's own REPL start.
"""
