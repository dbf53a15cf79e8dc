"""Every source in sources/ has readable metadata naming it, and its text."""

import pytest
import yaml

from academie.dsl.loader import source_ids, sources_root

REQUIRED = ("id", "title", "author", "date_text", "date_edition", "language", "origin", "licence", "text")


@pytest.mark.parametrize("sid", sorted(source_ids()))
def test_source_metadata(sid):
    meta = yaml.safe_load((sources_root() / f"{sid}.yaml").read_text(encoding="utf-8"))
    missing = [k for k in REQUIRED if not meta.get(k)]
    assert not missing, f"{sid}.yaml lacks {missing}"
    assert meta["id"] == sid
    text = (sources_root() / meta["text"]).read_text(encoding="utf-8")
    assert text.strip()
    for prefix in meta.get("not_rules") or []:
        assert isinstance(prefix, str) and prefix.strip()


# -- the sources as a bibliography ------------------------------------------------------
KINDS = ("original", "translation", "retelling", "encyclopedia")


@pytest.mark.parametrize("sid", sorted(source_ids()))
def test_source_is_a_bibliography_entry(sid):
    meta = yaml.safe_load((sources_root() / f"{sid}.yaml").read_text(encoding="utf-8"))
    people = meta.get("authors") or meta.get("editors")
    assert people and all(("family" in n) or ("literal" in n) for n in people), f"{sid}: authors or editors"
    assert meta.get("kind") in KINDS, f"{sid}: kind is one of {KINDS}"
    assert meta.get("work"), f"{sid}: the work the text is in"
    if meta.get("year") is not None:
        assert isinstance(meta["year"], int)
    if meta["kind"] == "translation":
        assert meta.get("translation_of") in source_ids()
