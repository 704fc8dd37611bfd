"""Which of our languages a language code names: ``?lang=`` values, cookies, form fields and
Accept-Language tags are written by people and browsers in many spellings ("zh", "zh-CN",
"zh_Hans", "ja-JP"), and a code we cannot place must not silently become English where the
reader asked for Chinese.

Chinese is matched only where Simplified is what is asked for: zh-TW, zh-HK and zh-Hant
readers are not given a script they did not ask for (they get their next choice)."""
from __future__ import annotations

LOCALES = ("en", "zh_Hans", "ja")
# Whole tags (lower case, "-" separated) per locale; any other tag matches by its first
# subtag ("en-GB" -> en, "ja-JP" -> ja), except Chinese, which needs a Simplified region
# or script.
TAGS = {"zh": "zh_Hans", "zh-cn": "zh_Hans", "zh-sg": "zh_Hans", "zh-my": "zh_Hans",
        "zh-hans": "zh_Hans", "en": "en", "ja": "ja"}
SIMPLIFIED_PREFIXES = ("zh-hans-", "zh-cn-", "zh-sg-")


def locale_for(code) -> str | None:
    """The locale (one of ``LOCALES``) ``code`` names, or None when it names none of ours."""
    if not isinstance(code, str) or not code or len(code) > 35:
        return None
    if code in LOCALES:
        return code
    tag = code.strip().lower().replace("_", "-")
    if tag in TAGS:
        return TAGS[tag]
    primary = tag.split("-")[0]
    if primary == "zh":
        return "zh_Hans" if tag.startswith(SIMPLIFIED_PREFIXES) else None
    return TAGS.get(primary)
