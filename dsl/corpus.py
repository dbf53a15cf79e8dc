"""Where rule files are found: corpus ids (files of the installed corpus, rules/) and paths,
the sources (sources/), and the boundary of what a rule file may extend or import."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from .errors import Pos, RuleError
from .limits import Limits


def corpus_root() -> Path:
    return Path(str(resources.files("academie.rules")))


def sources_root() -> Path:
    return Path(str(resources.files("academie.sources")))


def corpus_ids() -> list[str]:
    root = corpus_root()
    return sorted(str(p.relative_to(root).with_suffix("")).replace("\\", "/") for p in root.rglob("*.yaml"))


@lru_cache(maxsize=1)
def source_ids() -> frozenset[str]:
    return frozenset(p.stem for p in sources_root().glob("*.yaml"))


def is_path(ref: str | Path) -> bool:
    """Whether a name of rule file is a path (else a corpus id): a ``Path``,
    or text that ends in ``.yaml``/``.yml`` or starts with ``./``, ``../``,
    ``/`` or ``~``. A corpus id is looked up only inside the installed corpus,
    never against the working directory."""
    if isinstance(ref, Path):
        return True
    return (
        ref.endswith((".yaml", ".yml"))
        or ref in (".", "..", "~")
        or ref.startswith(("./", "../", "/", "~", ".\\", "..\\"))
        or Path(ref).is_absolute()
    )


def corpus_path(cid: str) -> Path | None:
    """The file of corpus id ``cid``, or None if there is none. An id with an
    empty, ``.`` or ``..`` part, a backslash or a NUL names nothing."""
    parts = cid.split("/")
    if not cid or "\\" in cid or "\x00" in cid or any(p in ("", ".", "..") for p in parts):
        return None
    root = corpus_root()
    q = root.joinpath(*parts[:-1], parts[-1] + ".yaml")
    try:
        if q.is_file() and q.resolve().is_relative_to(root.resolve()):
            return q
    except OSError:
        return None
    return None


def _is_file(p: Path) -> bool:
    """Whether ``p`` is a file; a name the system cannot even look up (too
    long, a NUL) is no file."""
    try:
        return p.is_file()
    except (OSError, ValueError):
        return False


def find_rules(ref: str | Path, relative_to: str | None = None) -> tuple[Path, str]:
    """(path, id) of a rule file named by corpus id or by path (see
    ``is_path``). A path is taken relative to the working directory, or to
    the folder of file ``relative_to``; whether it may be read is for the
    caller to decide (``resolve`` keeps rule files inside their boundary)."""
    if is_path(ref):
        p = Path(ref).expanduser() if isinstance(ref, Path) or ref.startswith("~") else Path(ref)
        if relative_to is not None and not p.is_absolute():
            p = Path(relative_to).parent / p
        try:
            if p.exists():
                return p, id_of(p)
        except OSError:
            pass
        raise FileNotFoundError(str(ref))
    q = corpus_path(str(ref))
    if q is not None:
        return q, str(ref)
    raise FileNotFoundError(str(ref))


def missing_hint(ref: str) -> str:
    """A word of help when ``ref`` names no rule file: a corpus id that names a
    file of the working directory, or a path ending in .yaml whose stem is a
    corpus id ("" if neither)."""
    from .text import cut

    try:
        if not is_path(ref) and Path(ref).is_file():
            return f" (a corpus id is looked up only in the corpus; to read the file here, write ./{cut(ref, 120)})"
    except (OSError, ValueError):
        pass
    if not is_path(ref) and any(p in ("", ".", "..") for p in ref.split("/")):
        return " (a corpus id names a file of the corpus: it has no empty, '.' or '..' part)"
    if ref.endswith(".yaml") and corpus_path(ref[:-5]) is not None:
        return f" (the corpus id is {cut(ref[:-5], 120)})"
    return ""


def id_of(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(corpus_root().resolve()).with_suffix("")).replace("\\", "/")
    except (ValueError, OSError):
        return path.stem


def in_corpus(path: Path) -> bool:
    try:
        return path.resolve().is_relative_to(corpus_root().resolve())
    except OSError:
        return False


def check_reach(ref: str, path: Path, from_file: str, limits: Limits | None, at: Pos) -> None:
    """Refuse (a located RuleError, before reading anything) a file named by a
    path in ``extends``/``imports`` of ``from_file`` that is outside what that
    file may reach: a corpus file reaches only the corpus; any other file
    reaches the corpus, files under its own folder (symlinks resolved) and the
    folders allowed by ``limits.allow``."""
    from .text import cut

    how = f"'{cut(ref, 120)}'"
    if Path(ref).expanduser().is_absolute():
        raise RuleError(
            f"{how} is an absolute path: a rule file may extend or import a corpus id "
            "or a file under its own folder, named by a relative path",
            at,
            code="boundary",
        )
    try:
        target = path.resolve()
    except (OSError, RuntimeError):
        raise RuleError(f"{how} cannot be resolved (a loop of symbolic links?)", at, code="boundary") from None
    if in_corpus(path):
        return
    home = Path(from_file).absolute().parent
    if in_corpus(Path(from_file)):
        raise RuleError(
            f"{how} is outside the corpus: a corpus file may extend or import only corpus files", at, code="boundary"
        )
    roots = [home.resolve()] + [Path(a).expanduser().resolve() for a in (limits.allow if limits else ())]
    if any(target.is_relative_to(r) for r in roots):
        return
    raise RuleError(
        f"{how} is outside the folder of this rule file ({home}): a rule file may extend or "
        "import corpus ids and files under its own folder (allow another folder with "
        "--allow-path DIR)",
        at,
        code="boundary",
    )
