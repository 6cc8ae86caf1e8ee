"""A Babel extractor for Kivy's ``.kv`` files, registered in ``babel.cfg``.

A kv rule translates with ``tr._('...')`` or ``tr.ngettext('...', '...', n)``
(:mod:`kiosk.ui.tr`). Babel's Python extractor cannot read a kv file (it is not Python,
only its rule values are), so each rule value is tokenised here with the Python extractor
on its own. Build-time only: nothing at run time imports this module.
"""

from __future__ import annotations

import io
import re
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

# a kv line that calls the translator: ``text: tr._('Undo')``
_CALLS = re.compile(r"\btr\.(_|ngettext)\(")


def extract_kv(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
               options: Mapping[str, Any]) -> Iterator[tuple[int, str, str | tuple[str, ...], list[str]]]:
    """Babel's extractor interface: ``(lineno, function, message(s), comments)`` per call."""
    from babel.messages.extract import extract_python

    encoding = options.get("encoding", "utf-8")
    for lineno, line in enumerate(fileobj.read().decode(encoding).splitlines(), 1):
        if not _CALLS.search(line):
            continue
        # the rule's value (after "name:") is a Python expression: let Babel read it
        value = line.split(":", 1)[1] if re.match(r"\s*[\w.]+\s*:", line) else line
        source = io.BytesIO(value.strip().encode("utf-8"))
        for _, funcname, messages, comments in extract_python(source, keywords, comment_tags, {}):
            yield lineno, funcname, messages, comments
