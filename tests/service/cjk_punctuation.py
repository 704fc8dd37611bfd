"""Where ASCII punctuation sits inside Chinese or Japanese text.  No tests in here.

Why a shared finder: the catalogs, the pages and the mails are checked by the same rule, so a
sentence the catalog gets right cannot be broken again by a template or a join that puts
"; " or ". " between two translated parts."""
from __future__ import annotations

import re

# Han, kana, CJK punctuation and full-width forms.
CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
# What keeps its ASCII punctuation: URLs, the record's fingerprint, gettext and engine
# placeholders, HTML tags and entities, file suffixes (".eml"), and code between backticks.
KEPT = re.compile(r"https?://\S+|sha256:[0-9a-f]*|%\(\w+\)[sd]|\{\w*\}|<[^>]*>|&#?\w+;"
                  r"|(?<![\w.])\.[a-z]{2,4}\b|`[^`]*`")
NEUTRAL = "\ue000"  # stands for what was kept: neither CJK nor a Latin letter
SENTENCE_MARKS = ",.;:?!()"
BETWEEN = re.compile(rf"[{CJK}]\s*[;.,:]|[0-9]\s*[;.,:]\s*[{CJK}]|[，、；：。] +[{CJK}0-9]")


def misplaced_in_catalog(text: str) -> list[str]:
    """Each ASCII sentence mark of a catalog text with CJK text after or before it, unless a
    Latin word or a number comes right before it (a name, "OK", "3.5")."""
    text = KEPT.sub(NEUTRAL, text)
    found = []
    for i, mark in enumerate(text):
        if mark not in SENTENCE_MARKS:
            continue
        before, after = text[:i].rstrip()[-1:], text[i + 1:].lstrip()[:1]
        if _cjk(before) or (_cjk(after) and not re.match(r"[A-Za-z0-9]", before)):
            found.append(text[max(0, i - 8):i + 8])
    return found


def misplaced_in_output(text: str) -> list[str]:
    """Each ASCII ``;``, ``.``, ``,`` or ``:`` a reader sees after a CJK character or between a
    number and CJK text, and a space after a full-width mark (those marks carry their own
    spacing); URLs and the fingerprint line left out."""
    text = re.sub(r"https?://\S+|sha256:[0-9a-f]*", NEUTRAL, text)
    return [text[max(0, m.start() - 12):m.end() + 12] for m in BETWEEN.finditer(text)]


def _cjk(char: str) -> bool:
    return bool(char) and bool(re.match(rf"[{CJK}]", char))
