"""What a `subprocess` argv about to be executed runs, read as CPython and a POSIX shell read it
(spawned.py's audit hook asks; SPEC §8).

- `program_start`: in `python [OPTIONS] PROGRAM`, where PROGRAM begins, and whether it is a
  FILE or `-m MODULE` (-c, stdin, --help… are none).
- `module_file`: the file `python -m MODULE` would run from its working directory, when that is
  certain: sys.path[0] is the working directory (no -P, -I or PYTHONSAFEPATH), every package on
  the way is a regular package there, and the name is not a built-in or frozen module (those
  are found before any path entry).
- `shell_words` / `shell_line`: the words of a `sh -c` command that is one simple command of
  plain words (quotes allowed; nothing the shell would expand, redirect or chain), and such a
  command written back. Any other command line is left alone.

Only `_imp` is used here: no module the program would see appears in sys.modules.
"""

import os
import sys

__all__ = ["SHELLS", "module_file", "module_name", "program_start", "shell_line", "shell_words", "which"]

SHELLS = ("sh", "bash", "dash", "ksh", "zsh")
_SPECIAL = set("$`\\!*?[]{}~;&|<>()#\n\r")
_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")


def program_start(argv):
    """(index, "file" | "module", safe_path) of PROGRAM in `python [OPTIONS] PROGRAM ARGS`, or
    None. For a module, index is that of the `-m` (or `-mNAME`) argument; safe_path is whether
    an option (-P, -I) keeps the working directory off sys.path."""
    i, safe = 1, False
    while i < len(argv):
        arg = os.fsdecode(argv[i])
        if arg == "--":
            return (i + 1, "file", safe) if i + 1 < len(argv) else None
        if not arg.startswith("-"):
            return i, "file", safe
        if arg == "-" or (arg.startswith("--") and arg != "--check-hash-based-pycs"):
            return None  # stdin, --help, --version
        if arg == "--check-hash-based-pycs":
            i += 2
            continue
        if arg.startswith("-m"):
            has_name = len(arg) > 2 or i + 1 < len(argv)
            return (i, "module", safe) if has_name else None
        for at, letter in enumerate(arg[1:], start=1):
            if letter in "cm":
                return None  # -c, or -m joined to other options (left as python3 runs it)
            safe = safe or letter in "PI"
            if letter in "WX":
                i += at == len(arg) - 1  # its value is the next argument
                break
        i += 1
    return None


def module_name(argv, index):
    arg = os.fsdecode(argv[index])
    return arg[2:] if len(arg) > 2 else os.fsdecode(argv[index + 1])


def module_file(name, cwd, env, safe_path):
    """The file `-m name` runs from `cwd`, or None when another could be found first."""
    import _imp

    env = os.environ if env is None else {os.fsdecode(k): os.fsdecode(v) for k, v in env.items()}
    if safe_path or env.get("PYTHONSAFEPATH"):
        return None
    parts = name.split(".")
    if not all(part.isidentifier() for part in parts):
        return None
    if parts[0] in sys.builtin_module_names or _imp.is_frozen(parts[0]):
        return None
    folder = cwd
    for part in parts[:-1]:
        folder = os.path.join(folder, part)
        if not os.path.isfile(os.path.join(folder, "__init__.py")):
            return None
    last = os.path.join(folder, parts[-1])
    if os.path.isdir(last):
        regular = os.path.isfile(os.path.join(last, "__init__.py"))
        main = os.path.join(last, "__main__.py")
        return main if regular and os.path.isfile(main) else None
    if os.path.isfile(last + ".py") and not _compiled_beside(folder, parts[-1]):
        return last + ".py"
    return None


def _compiled_beside(folder, stem):
    """An extension module of the same name is found before the .py file."""
    try:
        return any(entry.startswith(stem + ".") and entry.endswith(".so") for entry in os.listdir(folder))
    except OSError:
        return True


def shell_words(command):
    """The words of one simple command of plain words, or None."""
    if not command or any(c in _SPECIAL for c in command):
        return None
    words, word, quote, started = [], [], None, False
    for c in command:
        if quote is not None:
            if c == quote:
                quote = None
            else:
                word.append(c)
        elif c in "'\"":
            quote, started = c, True
        elif c in " \t":
            if started:
                words.append("".join(word))
            word, started = [], False
        else:
            word.append(c)
            started = True
    if quote is not None:
        return None
    if started:
        words.append("".join(word))
    if not words or "=" in words[0]:
        return None  # an assignment before the command
    return words


def shell_line(words):
    return " ".join(w if w and all(c in _SAFE for c in w) else "'" + w.replace("'", "'\"'\"'") + "'" for w in words)


def which(command, cwd, env):
    """The file a shell runs for `command`: a path as written, or the first on $PATH."""
    if "/" in command:
        return os.path.join(cwd, command)
    env = os.environ if env is None else {os.fsdecode(k): os.fsdecode(v) for k, v in env.items()}
    for entry in env.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(entry or cwd, command)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None
