"""The works the corpus rests on, as a bibliography: each source's metadata
(``sources/ID.yaml``: authors or editors, work, edition, year, pages, place,
publisher, language, URL, licence and the kind of text) written as a short
citation ("Boussac 1896, pp. 184–186"), a full entry, BibTeX or CSL-JSON.

``academie cite RULES`` exports the works a rule file cites (and the originals
of the translations it cites); ``docs/bibliography.md`` and the site's
bibliography page list every source. BibTeX is written through pybtex, the URL
verbatim; tests/test_citations.py reads it back with pybtex and renders the
CSL-JSON with citeproc-py."""

from __future__ import annotations

import re
from typing import Any

from .validate import source_meta

KINDS = ("original", "translation", "retelling", "encyclopedia")
KIND_WORDS = {
    "original": "original text",
    "translation": "translation",
    "retelling": "modern retelling",
    "encyclopedia": "encyclopedia article",
}
LANGUAGES = {"en": "English", "fr": "French", "de": "German"}


def _names(meta: dict, key: str) -> list[dict]:
    return [n for n in meta.get(key) or [] if isinstance(n, dict)]


def _name_short(n: dict) -> str:
    return str(n.get("family") or n.get("literal") or "")


def _name_full(n: dict) -> str:
    if "literal" in n:
        return str(n["literal"])
    return ", ".join(str(x) for x in (n.get("family"), n.get("given")) if x)


def _pages(meta: dict) -> str:
    p = str(meta.get("pages") or "")
    if not p:
        return ""
    return ("pp. " if re.search(r"[–-]", p) else "p. ") + p


def _people(meta: dict) -> tuple[list[dict], bool]:
    """The authors, or else the editors (and whether they are editors)."""
    authors = _names(meta, "authors")
    return (authors, False) if authors else (_names(meta, "editors"), True)


def works(sids) -> list[str]:
    """The sources ``sids`` with the originals of the translations among them, sorted."""
    out = set(sids)
    for s in list(out):
        orig = source_meta(s).get("translation_of")
        if orig:
            out.add(str(orig))
    return sorted(out)


def short(sid: str | None) -> str:
    """A short citation: "Boussac 1896, pp. 184–186", "Wikipedia contributors n.d."."""
    if sid is None:
        return "(no source)"
    meta = source_meta(sid)
    people, eds = _people(meta)
    names = [_name_short(n) for n in people]
    who = " and ".join(names) if len(names) <= 2 else f"{names[0]} et al."
    who = (who + (" (eds.)" if eds else "")) or str(meta.get("title") or sid)
    year = str(meta.get("year") or "n.d.")
    pages = _pages(meta)
    tr = ""
    if meta.get("kind") == "translation":
        lang = LANGUAGES.get(str(meta.get("language")), "")
        tr = f" (tr. {meta['translator']})" if meta.get("translator") else f" ({lang} translation)"
    return f"{who} {year}" + (f", {pages}" if pages else "") + tr


def full(sid: str, url: bool = True) -> str:
    """The full entry, in one paragraph of plain text (``url``: with the text's address)."""
    meta = source_meta(sid)
    people, eds = _people(meta)
    who = "; ".join(_name_full(n) for n in people) + (" (eds.)" if eds else "")
    parts = [who or str(meta.get("author") or "")]
    parts.append(f"“{meta.get('title') or sid}”")
    work = meta.get("work")
    if work and work != meta.get("title"):
        parts.append(f"in {work}")
    for key in ("edition",):
        if meta.get(key):
            parts.append(str(meta[key]))
    if meta.get("volume"):
        parts.append(f"vol. {meta['volume']}")
    place = ": ".join(str(meta[k]) for k in ("place", "publisher") if meta.get(k))
    when = str(meta.get("year") or "n.d.")
    parts.append(f"{place}, {when}" if place else when)
    if _pages(meta):
        parts.append(_pages(meta))
    kind = KIND_WORDS.get(str(meta.get("kind")), "")
    lang = LANGUAGES.get(str(meta.get("language")), str(meta.get("language") or ""))
    prep = "into" if meta.get("kind") == "translation" else "in"
    desc = ", ".join(x for x in (kind, f"{prep} {lang}" if lang else "") if x).replace(", into", " into")
    if meta.get("translation_of"):
        desc += f" of {short(str(meta['translation_of']))}"
    if meta.get("translator"):
        desc += f", translated by {meta['translator']}"
    if desc:
        parts.append(desc)
    if meta.get("licence"):
        parts.append(str(meta["licence"]))
    text = (
        ". ".join(
            (p if p.startswith(("p. ", "pp. ", "n.d.")) else p[0].upper() + p[1:]).rstrip(".") for p in parts if p
        )
        + "."
    )
    where = meta.get("url") if url else None
    return text + (f" <{where}>" if where else "") + f" [{sid}]"


# -- CSL-JSON -------------------------------------------------------------------------------
_CSL_TYPE = {"encyclopedia": "entry-encyclopedia", "retelling": "webpage"}


def csl(sid: str) -> dict[str, Any]:
    """One CSL-JSON item (https://citationstyles.org, schema csl-data.json)."""
    meta = source_meta(sid)
    people, eds = _people(meta)
    names = [
        {"literal": str(n["literal"])} if "literal" in n else {k: str(n[k]) for k in ("family", "given") if n.get(k)}
        for n in people
    ]
    item: dict[str, Any] = {
        "id": sid,
        "type": _CSL_TYPE.get(str(meta.get("kind")), "chapter" if meta.get("work") else "book"),
        "title": str(meta.get("title") or sid),
    }
    if meta.get("kind") == "retelling" and not meta.get("url"):
        item["type"] = "chapter"
    if names:
        item["editor" if eds else "author"] = names
    if meta.get("translator"):
        item["translator"] = [{"literal": str(meta["translator"])}]
    for key, field in (
        ("work", "container-title"),
        ("edition", "edition"),
        ("place", "publisher-place"),
        ("publisher", "publisher"),
        ("pages", "page"),
        ("url", "URL"),
        ("language", "language"),
        ("volume", "volume"),
    ):
        if meta.get(key):
            item[field] = str(meta[key])
    if meta.get("year"):
        item["issued"] = {"date-parts": [[int(meta["year"])]]}
    note = KIND_WORDS.get(str(meta.get("kind")), "")
    if meta.get("translation_of"):
        note += f" of {meta['translation_of']}"
    if meta.get("licence"):  # CSL 1.0 has no licence field
        note += f"; licence: {meta['licence']}"
    if note:
        item["note"] = note.lstrip("; ")
    return item


def csl_json(sids) -> list[dict[str, Any]]:
    return [csl(s) for s in sids]


# -- BibTeX ---------------------------------------------------------------------------------
# Written through pybtex (its entries, names and writer); a field's text is escaped for TeX
# here, except the verbatim fields (url), which biblatex and the url package read as they are.
_BIB_SPECIAL = re.compile(r"([\\{}%&#$_~^])")
_BIB_ESC = {
    "\\": r"\textbackslash{}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_VERBATIM = ("url",)
_NAMES = ("author", "editor")
# what a verbatim field cannot hold as it is (an unbalanced brace, a backslash, white space),
# percent-encoded as in any URL
_URL_UNSAFE = {"{": "%7B", "}": "%7D", "\\": "%5C", " ": "%20", "\t": "%09", "\n": "%0A", "\r": "%0D"}


def tex(value: Any) -> str:
    """A value as TeX text: white space runs made one space, TeX's special characters escaped."""
    s = " ".join(str(value).split())
    return _BIB_SPECIAL.sub(lambda m: _BIB_ESC.get(m.group(1), "\\" + m.group(1)), s)


def _verbatim(value: Any) -> str:
    return "".join(_URL_UNSAFE.get(c, c) for c in str(value).strip())


def _bib_person(n: dict):
    from pybtex.database import Person

    if "literal" in n:
        return Person(last="{" + tex(n["literal"]) + "}")  # a corporate name: kept whole
    return Person(last=tex(n.get("family") or ""), first=tex(n.get("given") or ""))


def _writer():
    from pybtex.database.output.bibtex import Writer

    class _Writer(Writer):
        """pybtex's BibTeX writer, each field's text as this module made it: names and the
        other fields escaped already (tex), a verbatim field as it is."""

        def _write_field(self, stream, type, value):
            stream.write(f",\n  {type} = {self.quote(value)}")

        def quote(self, s):
            self.check_braces(s)
            return "{" + s + "}"

    return _Writer(encoding="UTF-8")


def _bib_entry(sid: str):
    from pybtex.database import Entry

    meta = source_meta(sid)
    people, eds = _people(meta)
    kind = str(meta.get("kind"))
    # an article of an encyclopedia, a chapter of a book, a page of a site: in the work, its booktitle
    entry_type = "incollection" if meta.get("work") else "book"
    fields: list[tuple[str, str]] = [("title", tex(meta.get("title") or sid))]
    for key, field in (
        ("work", "booktitle"),
        ("edition", "edition"),
        ("volume", "volume"),
        ("publisher", "publisher"),
        ("place", "address"),
        ("pages", "pages"),
        ("url", "url"),
    ):
        if meta.get(key):
            if key == "url":
                fields.append((field, _verbatim(meta[key])))
            else:
                fields.append((field, tex(str(meta[key]).replace("–", "--") if key == "pages" else meta[key])))
    fields.insert(1 + bool(meta.get("work")), ("year", tex(meta["year"]) if meta.get("year") else "n.d."))
    lang = LANGUAGES.get(str(meta.get("language")), "")
    if lang:
        fields.append(("language", tex(lang.lower())))
    undated = "" if meta.get("year") else "no date of publication"
    if undated and meta.get("date_text"):
        undated += f" (the text: {' '.join(str(meta['date_text']).split())})"
    note = "; ".join(x for x in (KIND_WORDS.get(kind, ""), undated, str(meta.get("licence") or "")) if x)
    if note:
        fields.append(("note", tex(note)))
    persons = {"editor" if eds else "author": [_bib_person(n) for n in people]} if people else {}
    return Entry(entry_type, fields=fields, persons=persons)


def bibtex_entry(sid: str) -> str:
    return bibtex([sid])


def bibtex(sids) -> str:
    """The BibTeX entries of sources ``sids`` (keys: the source ids), in that order."""
    from pybtex.database import BibliographyData

    data = BibliographyData()
    for sid in sids:
        data.add_entry(sid, _bib_entry(sid))
    return _writer().to_string(data) if sids else ""


def text(sids) -> str:
    return "\n".join(full(s) for s in sids) + ("\n" if sids else "")


def markdown(sids) -> str:
    """The bibliography as Markdown (docs/bibliography.md)."""
    lines = [
        "# Bibliography",
        "",
        "Every text the rule files of the corpus cite, from its metadata in `sources/ID.yaml`",
        "(written by `python -m academie.bibliography`; `academie cite RULES --format",
        "bibtex|csl-json|text` exports the works one rule file rests on). Notes in rendered",
        "rules cite a work as “Author year, p. N”; the full entry is here. Each entry says what",
        "kind of text it is (original, translation, modern retelling, encyclopedia article),",
        "its language and its licence; a quote in another language than English carries an",
        "English translation in the rule file, the project's own unless it names another.",
        "",
        "A source's metadata (`sources/ID.yaml`): `id`, `title`, `authors` (or `editors`: each",
        "`{family, given}` or `{literal}`), `work` (the book, encyclopedia or site the text is in),",
        "`edition`, `volume`, `place`, `publisher`, `year`, `pages`, `language`, `url`, `licence`,",
        "`kind` (original, translation, retelling, encyclopedia), `translation_of` and `translator`",
        "for a translation, `origin` (where the stored copy was read), `text`, `excerpt`, `faults`",
        "(where the copy is cut off or wrong) and `not_rules` (sentences that state no rule).",
        "",
    ]
    for kind in KINDS:
        group = [s for s in sids if source_meta(s).get("kind") == kind]
        if group:
            lines += [f"## {KIND_WORDS[kind].capitalize()}s", ""]
            lines += [f"- **{short(s)}**. {full(s)}" for s in group]
            lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - writes docs/bibliography.md
    from .dsl.loader import source_ids

    print(markdown(sorted(source_ids())), end="")
