"""``academie validate``: every check a rule file can fail, collected as
located diagnostics rather than stopping at the first.

Checks, in order (a file that cannot be read as YAML stops at the first):

1. structure: YAML, the JSON Schema (every violation), the schema line;
2. citations: every quote is in its source (``academie/citations.py``), and
   every sentence of each source the file cites is accounted for: cited, or
   listed in the source's metadata with its kind and why (the ledger,
   ``academie/coverage.py``), and that metadata is well formed;
3. references: ``extends``/``imports`` targets, cycles, source ids, options
   (each alone, and each declared conflict);
4. expressions and the arithmetic of the deal (the compiler's own checks);
5. the source's own arithmetic (``source_says``) against the pack;
6. playouts: a few random games per number of players and option.

Nothing here knows a game: the document is walked as data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator


from .citations import Text
from .dsl.errors import Diagnostic, Pos, RuleError
from .dsl.loader import (
    Doc,
    Limits,
    apply_options,
    check_schema,
    find_rules,
    load_yaml,
    read_input,
    resolve,
    source_ids,
    sources_root,
    walk,
)
from .dsl.model import GameDef, compile_doc

SCHEMA_LINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=\S+")
DEFAULT_PLAYOUTS = 3
DEFAULT_PLAYOUT_LIMIT = 20_000


# -- sources ------------------------------------------------------------------------
@lru_cache(maxsize=None)
def source_meta(sid: str) -> dict:
    """A source's metadata (sources/ID.yaml); a file that cannot be read is a
    located error, not an empty record."""
    if sid not in source_ids():  # an id, never a path: nothing outside sources/ is read
        raise RuleError(f"unknown source '{sid}'", Pos(str(sources_root()), 0, 0), code="reference")
    p = sources_root() / f"{sid}.yaml"
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise RuleError(f"cannot read the source's metadata: {e.strerror}", Pos(str(p), 0, 0), code="io") from None
    meta, _ = load_yaml(raw, str(p))
    if not isinstance(meta, dict):
        raise RuleError("a source's metadata is a mapping (id:, title:, text:, …)", Pos(str(p), 1, 1), code="structure")
    return meta


@lru_cache(maxsize=None)
def source_text(sid: str) -> Text | None:
    """A source's verbatim text, prepared for look-ups; None if it has none."""
    name = source_meta(sid).get("text") or f"{sid}.txt"
    try:
        return Text((sources_root() / str(name)).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None


@dataclass
class Quote:
    """One quote of a rule file: which source, what text, where written."""

    source: str | None
    text: str
    path: tuple  # path of the quote's node in its file
    element: tuple  # path of the rule element that carries it


def quotes(data: Any) -> Iterator[Quote]:
    """Every quote of a file's own data (not resolved), with its source id:
    a bare string quotes the file's default ``source:``. Defensive: data that
    failed the schema is walked too, and odd shapes are skipped."""
    default = data.get("source") if isinstance(data, dict) and isinstance(data.get("source"), str) else None
    for path, node in walk(data):
        if not isinstance(node, dict) or "cite" not in node:
            continue
        c = node["cite"]
        items = list(enumerate(c)) if isinstance(c, list) else [(None, c)]
        for i, item in items:
            qpath = path + ("cite",) + ((i,) if i is not None else ())
            if isinstance(item, str):
                yield Quote(default, item, qpath, path)
            elif isinstance(item, dict) and isinstance(item.get("quote"), str):
                sid = item.get("source") if isinstance(item.get("source"), str) else None
                yield Quote(sid, item["quote"], qpath + ("quote",), path)


# -- the report -----------------------------------------------------------------------
@dataclass
class Report:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    _seen: set = field(default_factory=set)

    def add(self, d: Diagnostic) -> None:
        key = (d.pos, d.message, d.severity)
        if key not in self._seen:
            self._seen.add(key)
            self.diagnostics.append(d)

    def extend(self, ds) -> None:
        for d in ds:
            self.add(d)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "warning")


def _err(pos, message, code, severity="error") -> Diagnostic:
    return Diagnostic(pos, message, severity=severity, code=code)


# -- the checks -------------------------------------------------------------------------
def validate(
    refs: list[str],
    playouts: int = DEFAULT_PLAYOUTS,
    limits: Limits | None = None,
    max_plays: int = DEFAULT_PLAYOUT_LIMIT,
    report: Report | None = None,
) -> Report:
    """Validate each rule file named by ``refs`` (corpus ids or paths)."""
    report = report or Report()
    for ref in refs:
        path, rid = find_rules(ref)  # FileNotFoundError: the caller's misuse
        report.files.append(str(path))
        start = len(report.diagnostics)
        try:
            validate_file(path, report, playouts, limits, max_plays)
        except RuleError as e:  # anything not caught by a finer check
            report.extend(e.diagnostics)
        except RecursionError:
            report.add(_err(Pos(str(path), 1, 1), "the document is nested too deeply to check", "limit"))
        mine = str(path)
        report.diagnostics[start:] = sorted(
            report.diagnostics[start:], key=lambda d: (d.pos.file != mine, d.pos.file, d.pos.line, d.pos.col)
        )
    return report


def validate_file(path: Path, report: Report, playouts: int, limits: Limits | None, max_plays: int) -> None:
    file = str(path)
    try:
        raw = read_input(path, (limits or Limits()).file_bytes, "rule file")
    except RuleError as e:
        report.extend(e.diagnostics)
        return
    # 1. YAML
    try:
        data, positions = load_yaml(raw, file, limits)
    except RuleError as e:
        report.extend(e.diagnostics)
        return
    first = raw.removeprefix(b"\xef\xbb\xbf").split(b"\n", 1)[0].decode("utf-8", "replace")
    if not SCHEMA_LINE.match(first):
        report.add(
            _err(
                Pos(file, 1, 1),
                "the file does not name its schema: make its first line "
                "'# yaml-language-server: $schema=<path or URL of schema.json>'",
                "schema-line",
                "warning",
            )
        )
    # 2. the schema: every violation
    schema_ok = True
    try:
        check_schema(data, positions, file)
    except RuleError as e:
        report.extend(e.diagnostics)
        schema_ok = False
    # 3. citations (also on a file that fails the schema: walked defensively)
    if isinstance(data, dict):
        check_quotes(data, positions, file, report, limits)
        check_ledger(data, path, report)
    if not schema_ok:
        return
    # 4. references, expressions, arithmetic
    try:
        doc = resolve(path, (), limits)
    except RuleError as e:
        report.extend(e.diagnostics)
        return
    told: set = set()  # the plain file's errors, not told again for each option
    try:
        game = compile_doc(doc)
    except RuleError as e:
        report.extend(e.diagnostics)
        told = {(d.pos, d.message) for d in e.diagnostics}
        game = None
    options = doc.data.get("options") or {}
    variants: list[tuple[tuple, GameDef]] = [((), game)] if game is not None else []
    variants += check_options(file, options, doc, limits, report, told)
    if game is not None:
        check_source_says(doc, game, report)
        check_shown(doc, game, report)
        check_labels(doc, game, report)
    # 5. playouts
    if playouts > 0:
        for names, g in variants:
            if not g.abstract:
                check_playouts(g, names, playouts, max_plays, report)


def check_quotes(data: dict, positions: dict, file: str, report: Report, limits: Limits | None = None) -> None:
    known = source_ids()
    longest = (limits or Limits()).quote_length
    for q in quotes(data):
        pos = positions.get(q.path) or Pos(file, 1, 1)
        if q.source is None or q.source not in known:
            continue  # the compiler reports unknown or missing sources
        if len(q.text) > longest:
            continue  # the compiler reports it as too long; it is not looked for
        text = source_text(q.source)
        if text is None:
            report.add(_err(pos, f"source '{q.source}' has no readable text to check the quote against", "citation"))
            continue
        if text.find(q.text) is not None:
            continue
        c = text.closest(q.text)
        hint = ""
        if c is not None and c[0] >= 0.4:
            passage = " ".join(text.text[c[1].start : c[1].end].split())
            hint = f'; the closest passage ({c[0]:.0%} alike) reads: "{passage}"'
        report.add(_err(pos, f"quote not found in source '{q.source}': \"{_short(q.text)}\"{hint}", "citation"))


def check_ledger(data: dict, path: Path, report: Report) -> None:
    """Every sentence of each source the file cites is accounted for (the ledger: cited by the
    corpus or by this file, listed in the source's metadata, or a heading), and the metadata of
    those sources is well formed. A source of ``coverage.LEDGER_PENDING`` is tolerated up to its
    recorded number of sentences not accounted for."""
    from .coverage import LEDGER_PENDING, check_source_meta, coverage, ledger_diagnostics

    known = source_ids()
    sids: set[str] = {q.source for q in quotes(data) if q.source is not None and q.source in known}
    if isinstance(data.get("source"), str) and data["source"] in known:
        sids.add(data["source"])
    for sid in sorted(sids):
        bad = [] if sid in LEDGER_PENDING else check_source_meta(sid)  # a pending source: when it leaves the list
        report.extend(bad)
        if any(d.severity == "error" for d in bad):
            continue
        try:
            (ledger,) = coverage([sid], also=[path])
        except RuleError as e:
            report.extend(e.diagnostics)
            continue
        report.extend(ledger_diagnostics(sid, ledger))


def _short(s: str, n: int = 120) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def check_options(
    file: str, options: dict, doc, limits, report: Report, told: set | None = None
) -> list[tuple[tuple, GameDef]]:
    """Each declared option alone, then each two that may be used together (both
    good alone, neither declaring a conflict with the other); each declared
    conflict must be refused. An error already ``told`` (the plain file's, as
    (position, message)) is not repeated for each option."""
    told = set(told or ())
    out: list[tuple[tuple[str, ...], Any]] = []
    if not isinstance(options, dict):
        return out
    for name, opt in options.items():
        for i, other in enumerate((opt or {}).get("conflicts", []) or []):
            if other not in options:
                report.add(
                    _err(
                        doc.pos(("options", name, "conflicts", i)),
                        f"option '{name}' conflicts with '{other}', which is not an option of this "
                        f"file (options: {', '.join(options)})",
                        "option",
                    )
                )
                continue
            try:  # refused before anything is merged: the options alone tell (no file read again)
                apply_options(Doc({"options": options}, dict(doc.positions), doc.file, doc.id), [name, other])
            except RuleError as e:
                if not any(d.code == "option" for d in e.diagnostics):
                    report.extend(d for d in e.diagnostics if (d.pos, d.message) not in told)
            else:
                report.add(
                    _err(
                        doc.pos(("options", name, "conflicts", i)),
                        f"options '{name}' and '{other}' are declared in conflict but were accepted together",
                        "option",
                    )
                )
        if (opt or {}).get("default"):
            continue  # already on in the plain resolution
        try:
            odoc = resolve(Path(file), (name,), limits)
            out.append(((name,), compile_doc(odoc)))
        except RuleError as e:
            for d in e.diagnostics:
                if (d.pos, d.message) not in told:
                    report.add(Diagnostic(d.pos, f"with option '{name}': {d.message}", d.severity, d.code))
    good = [names[0] for names, _ in out]

    def with_required(n, seen=()):  # the option and those it requires, their conflicts its own
        got = {n}
        for r in (options.get(n) or {}).get("requires") or []:
            if r in options and r not in seen:
                got |= with_required(r, seen + (n,))
        return got

    def clash(a, b):
        return any(
            y in ((options.get(x) or {}).get("conflicts") or []) or x in ((options.get(y) or {}).get("conflicts") or [])
            for x in with_required(a)
            for y in with_required(b)
        )

    pairs = [(a, b) for i, a in enumerate(good) for b in good[i + 1 :] if not clash(a, b)]
    budget = PAIRS_PER_OPTION * len(options)
    if len(pairs) > budget:  # a sample, linear in the options: those that change the same keys first
        keys = {n: _keys_set(options.get(n)) for n in good}
        pairs.sort(key=lambda ab: not (keys[ab[0]] & keys[ab[1]]))
        report.add(
            _err(
                doc.key_pos(("options",)),
                f"{len(options)} options: {budget} of the {len(pairs)} pairs that may be used together were "
                f"compiled and played together ({PAIRS_PER_OPTION} per option, those that change the same keys "
                "first); the others were not checked",
                "option",
                "warning",
            )
        )
        pairs = pairs[:budget]
    for a, b in pairs:
        try:
            out.append(((a, b), compile_doc(resolve(Path(file), (a, b), limits))))
        except RuleError as e:
            for d in e.diagnostics:
                if (d.pos, d.message) not in told:
                    report.add(
                        Diagnostic(d.pos, f"with options '{a}' and '{b}' together: {d.message}", d.severity, d.code)
                    )
    return out


PAIRS_PER_OPTION = 2  # pairs of options compiled together, per option of the file (all of them up to 5 options)


def _keys_set(opt: Any) -> set[tuple]:
    """The keys an option changes, two levels deep (``hand.play``, ``vars.limit``, ``title``)."""
    got: set[tuple] = set()
    patch = opt.get("set") if isinstance(opt, dict) else None
    for path, node in walk(patch if isinstance(patch, dict) else {}):
        if path and (len(path) == 2 or not isinstance(node, dict)):
            got.add(tuple(path[:2]))
    return got


def check_source_says(doc, game: GameDef, report: Report) -> None:
    """What a source states about a deal (``source_says``), checked against the
    pack: if the numbers cannot add up, say so against the source, and name the
    editorial element that corrects it (a warning) or none (an error)."""
    for path, node in walk(doc.data):
        if not isinstance(node, dict) or "source_says" not in node:
            continue
        says = node["source_says"]
        items = list(enumerate(says)) if isinstance(says, list) else [(None, says)]
        for i, s in items:
            if not isinstance(s, dict):
                continue
            spath = path + ("source_says",) + ((i,) if i is not None else ())
            n, hand, rest = s.get("players"), s.get("hand"), s.get("rest", 0)
            if not (isinstance(n, int) and isinstance(hand, int) and isinstance(rest, int)):
                continue
            pack = s.get("pack")
            if not isinstance(pack, int):
                try:
                    pack = len(game.pack(n))
                except Exception:  # noqa: BLE001 - removals that cannot be evaluated for n
                    continue
            total = n * hand + rest
            if total == pack:
                continue
            said = f"{n} players × {hand} cards + {rest} left over = {total} cards, but the pack has {pack}"
            quote = s.get("cite")
            quote = quote if isinstance(quote, str) else None
            src = f' ("{_short(quote, 80)}")' if quote else ""
            ed = node.get("editorial")
            if isinstance(ed, dict):
                report.add(
                    _err(
                        doc.pos(spath),
                        f"the source's arithmetic is impossible: {said}{src}; "
                        f"corrected by the editorial element at {doc.key_pos(path + ('editorial',))}",
                        "source-arithmetic",
                        "warning",
                    )
                )
            else:
                report.add(
                    _err(
                        doc.pos(spath),
                        f"the source's arithmetic is impossible: {said}{src}; "
                        "no editorial element on this step corrects it (add editorial: "
                        "{reason:, evidence:} saying what the rules do instead)",
                        "source-arithmetic",
                    )
                )


def check_shown(doc, game: GameDef, report: Report) -> None:
    """A counter declared seen by every seat (``shown: public``) whose value is worked out from the
    cards of the seats' zones, or each seat its own cell (``shown: own``) from the cards of another
    seat: a warning (the rules may make it public, but then the file says so on purpose)."""
    from .dsl.reads import reading_cards

    declared = {k: v for k, v in game.shown.items() if v in ("public", "own")}
    if not declared:
        return
    hidden = {"public": reading_cards(game), "own": reading_cards(game, others=True)}
    for name, how in declared.items():
        if name in hidden[how]:
            report.add(
                _err(
                    doc.pos(("vars", name, "shown")),
                    f"the counter '{name}' is shown: {how}, but its value is worked out from cards of the "
                    f"seats' zones (the effect at {hidden[how][name]}): "
                    + ("every seat" if how == "public" else "each seat")
                    + " sees it before those cards are shown (remove shown: to let the engine work out who sees it)",
                    "shown",
                    "warning",
                )
            )


def check_labels(doc, game: GameDef, report: Report) -> None:
    """A counter the players see (not ``shown: hidden``) without ``label:``, the game's word for it:
    a warning (the tables and the narration would fall back on the rule file's name for it)."""
    vars_ = doc.data.get("vars") or {}
    if not isinstance(vars_, dict):
        return
    for name, spec in vars_.items():
        if not isinstance(spec, dict) or spec.get("shown") == "hidden" or isinstance(spec.get("label"), str):
            continue
        report.add(
            _err(
                doc.key_pos(("vars", name)),
                f"the counter '{name}' has no label: the players would see it by the rule file's name "
                "(give it the game's word for it, label: …, or shown: hidden for a working value)",
                "label",
                "warning",
            )
        )


def check_playouts(game: GameDef, options: tuple, playouts: int, max_plays: int, report: Report) -> None:
    from .interpreter.agents import make_agents, play
    from .interpreter.state import InvariantError, State

    where = game.doc.key_pos(("game",)) if "game" in game.doc.data else Pos(game.doc.file, 1, 1)
    with_opt = f" with option {', '.join(options)}" if options else ""
    for n in range(game.min_players, game.max_players + 1):
        unfinished = 0
        for i in range(playouts):
            seed = f"validate/{'+'.join(options)}/{n}/{i}"
            try:
                st = State(game, n, seed, max_plays=max_plays, keep_events=False)
                play(st, make_agents(["random"], n, seed))
            except RuleError as e:
                for d in e.diagnostics:
                    report.add(
                        Diagnostic(
                            d.pos,
                            f"in a random game for {n} players{with_opt} (seed {seed!r}): {d.message}",
                            d.severity,
                            "playout",
                        )
                    )
                break
            except InvariantError as e:
                report.add(
                    _err(
                        where,
                        f"in a random game for {n} players{with_opt} (seed {seed!r}) an invariant broke: {e}",
                        "invariant",
                    )
                )
                break
            unfinished += bool(st.unfinished)
        if unfinished:
            report.add(
                _err(
                    where,
                    f"{unfinished} of {playouts} random games for {n} players{with_opt} "
                    f"did not finish within {max_plays} plays",
                    "unfinished",
                    "warning",
                )
            )
