"""The one way the program writes a file.

Two steps, so that nothing is lost and nothing is left behind:

* :func:`check_targets` runs before any work. Each target's folder must exist
  and be writable; the target must not be a folder, a symbolic link or a
  special file (device, FIFO, socket); two outputs may not name the same file,
  nor may an output name one of the command's input files (paths are compared
  resolved, symbolic links and hard links included). A failed check is a click
  usage error (exit status 2) naming the option.
* :class:`AtomicFile` (or :func:`atomic_write`, its context manager) writes to
  a fresh temporary file in the target's folder (``tempfile.mkstemp``: a new
  name each time, never an existing file), flushes and syncs it, and renames it
  over the target only when all is written (``os.replace``). On any failure,
  exception or Ctrl-C the temporary file is removed and the old target is left
  as it was.

A folder output (``site``) is built in a fresh temporary folder inside the
target folder, then each page is moved over its old version (``os.replace``):
a failed build leaves the folder as it was; files of the folder that are not
pages of the build are left alone.

A symbolic link or special file as a target is refused, with no option to
write through it: name the file the link points to (``realpath``), or send
the output to standard output where the command offers it.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

import click

_PREFIX = ".academie-"

#: Key of ``ctx.meta`` where a command records its exit status once decided
#: (before it prints its report): the status kept if standard output is then
#: found closed (``academie validate … | head -1``). Unset: 141, as if killed
#: by SIGPIPE, since the command's work was cut short.
STATUS = "academie.status"


class OutputError(click.ClickException):
    """An output that cannot be written: a clear message, exit status 2."""

    exit_code = 2

    def format_message(self) -> str:
        return self.message

    def show(self, file=None) -> None:
        click.echo(f"academie: {self.format_message()}", file=file, err=file is None)


def _shown(path: str) -> str:
    """A path as shown in a message: control characters escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in click.format_filename(path))


def _describe(mode: int) -> str | None:
    """What a path of this mode is, if not a regular file."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if not stat.S_ISREG(mode):
        return "not a regular file"
    return None


def _bad(hint: str, path: str, why: str) -> click.BadParameter:
    return click.BadParameter(f"cannot write '{_shown(path)}': {why}", param_hint=hint)


def _probe_folder(hint: str, path: str, folder: str) -> None:
    """The folder exists, is a folder, and a file can be created in it."""
    shown_folder = folder if folder else "."
    try:
        st = os.stat(shown_folder)
    except FileNotFoundError:
        raise _bad(hint, path, f"no folder '{_shown(shown_folder)}'") from None
    except OSError as e:
        raise _bad(hint, path, f"folder '{_shown(shown_folder)}': {e.strerror}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise _bad(hint, path, f"'{_shown(shown_folder)}' is not a folder")
    try:
        fd, probe = tempfile.mkstemp(prefix=_PREFIX, suffix=".probe", dir=shown_folder)
    except OSError as e:
        raise _bad(hint, path, f"folder '{_shown(shown_folder)}' is not writable ({e.strerror})") from None
    os.close(fd)
    try:
        os.unlink(probe)
    except OSError:
        pass


def _identity(path: str):
    """What makes two paths the same file: the device and inode of an existing
    file (hard links), else the resolved path (symbolic links, ``..``)."""
    try:
        st = os.stat(path)
        return ("inode", st.st_dev, st.st_ino)
    except OSError:
        return ("path", os.path.realpath(path))


def check_targets(
    outputs: Iterable[tuple[str, str | None]],
    inputs: Iterable[tuple[str, str | None]] = (),
    folders: Iterable[tuple[str, str | None]] = (),
) -> None:
    """Check, before any work, that each output can be written.

    ``outputs`` are files, ``folders`` are folder outputs, each a pair
    (option as shown to the user, path or None when not given); ``inputs`` are
    files the command reads, which no output may replace. Raises a click usage
    error (exit status 2) at the first problem."""
    seen: dict = {}
    for hint, path in inputs:
        if path:
            seen.setdefault(_identity(path), (hint, path, "input"))
    targets = [(h, p, False) for h, p in outputs] + [(h, p, True) for h, p in folders]
    for hint, path, is_folder in targets:
        if path is None:
            continue
        if path == "" or (path.endswith(("/", os.sep)) and not is_folder):
            raise _bad(hint, path, "a file name is needed")
        target = path.rstrip("/" + os.sep) or path
        try:
            st = os.lstat(target)
        except FileNotFoundError:
            st = None
        except OSError as e:
            raise _bad(hint, path, e.strerror or str(e)) from None
        if st is not None:
            kind = _describe(st.st_mode)
            if stat.S_ISLNK(st.st_mode):
                raise _bad(hint, path, "it is a symbolic link (name the file it points to instead)")
            if is_folder:
                if not stat.S_ISDIR(st.st_mode):
                    raise _bad(hint, path, f"it is {kind or 'a file'}, not a folder")
                _probe_folder(hint, path, target)
            elif kind is not None:
                raise _bad(hint, path, f"it is {kind}, not a regular file")
        if st is None or not is_folder:
            _probe_folder(hint, path, os.path.dirname(target))
        ident = _identity(target)
        if ident in seen:
            other_hint, other_path, role = seen[ident]
            what = "the input" if role == "input" else "the output"
            raise click.BadParameter(
                f"'{_shown(path)}' is the same file as {what} of {other_hint} ('{_shown(other_path)}')", param_hint=hint
            )
        seen[ident] = (hint, path, "output")


def _new_mode(target: str) -> int:
    """The permissions of the written file: the old target's, or those of a new
    file under the current umask."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def _cannot(path: str, e: OSError) -> OutputError:
    return OutputError(f"cannot write '{_shown(path)}': {e.strerror or e}")


def _fsync_folder(folder: str) -> None:
    try:
        fd = os.open(folder or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class AtomicFile:
    """A text file written to a fresh temporary file beside ``path`` and renamed
    over it by :meth:`commit`; :meth:`discard` removes the temporary file.
    A write that fails (a full disk) raises :class:`OutputError`, after which
    the temporary file is removed and the target untouched."""

    def __init__(self, path: str, *, encoding: str = "utf-8", newline: str | None = None):
        self.path = os.fspath(path)
        folder = os.path.dirname(self.path)
        name = os.path.basename(self.path)
        try:
            fd, self.tmp = tempfile.mkstemp(prefix=f"{_PREFIX}{name}.", suffix=".tmp", dir=folder or ".")
        except OSError as e:
            raise _cannot(self.path, e) from None
        self._f = os.fdopen(fd, "w", encoding=encoding, newline=newline)
        self.done = False

    def write(self, text: str) -> int:
        try:
            return self._f.write(text)
        except OSError as e:
            self.discard()
            raise _cannot(self.path, e) from None

    def commit(self) -> None:
        """Flush, sync, and rename over the target."""
        if self.done:
            return
        try:
            self._f.flush()
            os.fsync(self._f.fileno())
            self._f.close()
            os.chmod(self.tmp, _new_mode(self.path))
            os.replace(self.tmp, self.path)
        except OSError as e:
            self.discard()
            raise _cannot(self.path, e) from None
        except BaseException:
            self.discard()
            raise
        self.done = True
        _fsync_folder(os.path.dirname(self.path))

    def discard(self) -> None:
        """Remove the temporary file; the target is left as it was."""
        if self.done:
            return
        self.done = True
        try:
            self._f.close()
        except OSError:
            pass
        try:
            os.unlink(self.tmp)
        except FileNotFoundError:
            pass

    def __enter__(self) -> "AtomicFile":
        return self

    def __exit__(self, kind, value, tb) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def atomic_write(path: str, *, encoding: str = "utf-8", newline: str | None = None) -> AtomicFile:
    """``with atomic_write(path) as f: f.write(...)``: the target is replaced
    only if the block ends without an exception."""
    return AtomicFile(path, encoding=encoding, newline=newline)


def write_text(path: str, text: str) -> None:
    """Write a whole text atomically."""
    with atomic_write(path) as f:
        f.write(text)


@contextmanager
def atomic_folder(outdir: str | Path) -> Iterator[Path]:
    """Build a folder output: yields a fresh empty folder inside ``outdir``
    (created if it does not exist); when the block ends without an exception
    each file built there is moved over its namesake in ``outdir``. On any
    failure the build is removed and ``outdir`` left as it was (and removed
    again if this call created it)."""
    out = os.fspath(outdir)
    created = False
    try:
        os.mkdir(out)
        created = True
    except FileExistsError:
        pass
    except OSError as e:
        raise _cannot(out, e) from None
    try:
        stage = tempfile.mkdtemp(prefix=_PREFIX, suffix=".build", dir=out)
    except OSError as e:
        if created:
            _rmdir(out)
        raise _cannot(out, e) from None
    try:
        yield Path(stage)
        _publish(stage, out)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
        if created and not any(True for _ in os.scandir(out)):
            _rmdir(out)


def _publish(stage: str, out: str) -> None:
    """Move each file built in ``stage`` over its namesake in ``out``."""
    try:
        names = sorted(os.listdir(stage))
        for name in names:  # refuse before moving anything
            try:
                kind = _describe(os.lstat(os.path.join(out, name)).st_mode)
            except FileNotFoundError:
                continue
            if kind is not None:
                raise OutputError(f"cannot write '{_shown(os.path.join(out, name))}': it is {kind}, not a regular file")
        for name in names:
            os.chmod(os.path.join(stage, name), _new_mode(os.path.join(out, name)))
            os.replace(os.path.join(stage, name), os.path.join(out, name))
    except OSError as e:
        raise _cannot(out, e) from None
    _fsync_folder(out)


def _rmdir(path: str) -> None:
    try:
        os.rmdir(path)
    except OSError:
        pass


def failed_stream(e: BaseException) -> str | None:
    """Whether an OSError was raised writing standard output or standard error
    (a closed pipe, a full disk): ``"stdout"``, ``"stderr"``, or None when it
    came from elsewhere. The innermost frame wrote to that stream."""
    import sys

    if not isinstance(e, OSError):
        return None
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return None
    names = ("file", "self", "stream", "f")
    objs = [tb.tb_frame.f_locals.get(n) for n in names]
    objs = [o for o in objs if o is not None]
    for name in ("stdout", "stderr"):
        std = getattr(sys, name)
        if std is None:
            continue
        if any(o is std or o is getattr(std, "buffer", None) for o in objs):
            return name
        try:
            fd = std.fileno()
        except (OSError, ValueError, AttributeError):
            continue
        for o in objs:
            try:
                if o is not None and hasattr(o, "write") and o.fileno() == fd:
                    return name
            except (OSError, ValueError, AttributeError, TypeError):
                continue
    if e.errno == errno.EPIPE and _flush_fails(sys.stdout):
        return "stdout"
    return None


def is_stdout_failure(e: BaseException) -> bool:
    """Whether an OSError was raised writing standard output."""
    return failed_stream(e) == "stdout"


def _flush_fails(out) -> bool:
    try:
        out.flush()
    except OSError:
        return True
    except (AttributeError, ValueError):
        return False
    return False


def silence_stdout(name: str = "stdout") -> None:
    """Point standard output (or error) at the null device, so that what is
    still buffered for a closed pipe or full disk is dropped at exit, quietly."""
    import sys

    try:
        fd = getattr(sys, name).fileno()
    except (OSError, ValueError, AttributeError):
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)
