"""Incan Gold, drawn from ``engine.view`` output: the expedition as a picture.

``svg(view)`` is the play page's picture: the round track, who is still in the temple (with the
gems they carry) and who is back at camp, the path of turned cards in order with the gems left
on each, the hazards seen (the one seen twice when a round has just ended on it), the round that
has just ended, and each explorer's tent and artifacts, as far as the seat's view shows them (a
tent is secret to its owner until the game ends).  ``mail_html(view)`` says the same in
inline-styled HTML tables (mail clients drop SVG and external CSS).  ``icon(kind)`` is a card's
symbol as a small inline SVG for the page's text.

Every symbol is drawn with SVG shapes, never an emoji, so the picture needs no emoji font; every
card and explorer also says in words what it is.  The path is laid out in rows of five cards so
that the picture, scaled by its ``viewBox``, keeps its words readable on a 320 px phone.  Pure
functions: view in, markup out.
"""
from __future__ import annotations

from html import escape

from markupsafe import Markup

from engine.text import N_
from service.view.drawing import _, ngettext, seat_colour, text_width

HAZARD_NAME = {"spiders": N_("Spiders"), "mummies": N_("Mummy"), "fire": N_("Fire"),
               "snakes": N_("Snakes"), "rockfall": N_("Rockfall")}
INK, MUTED, WHITE, PAPER, LINE = "#1d1b16", "#5d574b", "#ffffff", "#f4ecd9", "#c9b98f"
# (fill, border, text) per card kind; a hazard seen twice is drawn dark.
CARD_COLOURS = {"treasure": ("#fff8e6", "#a0741b", INK), "hazard": ("#fdecec", "#9b1c1c", INK),
                "twice": ("#9b1c1c", "#9b1c1c", WHITE), "artifact": ("#f3edfa", "#6b3fa0", INK)}
NEWEST = "#1a56db"
WIDTH, PAD = 320, 8
COLUMNS, GAP = 4, 6
CARD_W = (WIDTH - 2 * PAD - (COLUMNS - 1) * GAP) / COLUMNS
CARD_H = 74
ENTRY_W, LINE_H = (WIDTH - 2 * PAD - GAP) / 2, 13
FONT = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"


def _e(value) -> str:
    return escape(str(value), quote=True)


# ------------------------------------------------------------------ words

def hazard_name(kind: str) -> str:
    """A hazard's name in the reader's language (the engine names hazards by internal id)."""
    return _(HAZARD_NAME[kind]) if kind in HAZARD_NAME else _("hazard")


def gems(n: int) -> str:
    return ngettext("%(num)s gem", "%(num)s gems", n, num=n)


def card_words(card: dict) -> str:
    """What a card on the path shows, in a short sentence."""
    if card.get("type") == "treasure":
        return _("treasure of %(gems)s, %(n)s left on it", gems=gems(card.get("value") or 0),
                 n=card.get("gems_left") or 0)
    if card.get("type") == "hazard":
        return hazard_name(card.get("hazard"))
    if card.get("value"):
        return _("artifact worth %(n)s gems", n=card["value"])
    return _("artifact")


def seen_twice(path: list[dict]) -> set[str]:
    """The hazard kinds turned twice on ``path``: the second one ended its round."""
    kinds = [c.get("hazard") for c in path if c.get("type") == "hazard"]
    return {kind for kind in kinds if kinds.count(kind) > 1}


def hazards_seen_words(path: list[dict]) -> str:
    """Each hazard kind on ``path`` once, in the order first seen, "(twice!)" after the one
    turned twice."""
    twice = seen_twice(path)
    return _(", ").join(hazard_name(k) + (" " + _("(twice!)") if k in twice else "")
                        for k in hazard_kinds(path))


def second_hazards(path: list[dict]) -> list[bool]:
    """Per card of ``path``: whether it is the second card of its hazard (the one that ended
    the round)."""
    seen: list[str] = []
    marks = []
    for card in path:
        kind = card.get("hazard") if card.get("type") == "hazard" else None
        marks.append(kind is not None and kind in seen)
        if kind is not None:
            seen.append(kind)
    return marks


def hazard_kinds(path: list[dict]) -> list[str]:
    return list(dict.fromkeys(c.get("hazard") for c in path if c.get("type") == "hazard"))


def tent_words(player: dict) -> str:
    if player.get("tent") is None:
        return _("tent: hidden")
    return _("tent: %(gems)s", gems=gems(player["tent"]))


def artifacts_words(player: dict) -> str:
    values = player.get("artifacts") or []
    if not values:
        return ""
    return ngettext("artifact worth %(values)s", "artifacts worth %(values)s", len(values),
                    values=_(", ").join(str(v) for v in values))


def where_words(player: dict) -> str:
    if player.get("in_temple"):
        return _("inside, carrying %(gems)s", gems=gems(player.get("carrying") or 0))
    return _("back at camp")


def ended_round(view: dict) -> dict | None:
    """The round that has just ended (the last card turned and how it ended), while the
    players have not yet moved in the next one, or at the end of the game."""
    history = view.get("history") or []
    last = view.get("last_reveal") or {}
    if not history:
        return None
    if view.get("game_over") or (last and last.get("round") != view.get("round")):
        return history[-1]
    return None


def ended_words(entry: dict, view: dict) -> str:
    if entry.get("ended_by") == "hazard":
        text = _("Round %(round)s ended: a second %(hazard)s came up", round=entry["round"],
                 hazard=hazard_name(entry.get("hazard")))
        if entry.get("caught"):
            names = _(", ").join(player_name(view, s) for s in entry["caught"])
            text += _(" and %(names)s fled empty-handed", names=names)
        return text
    return _("Round %(round)s ended: everyone left safely", round=entry["round"])


def player_name(view: dict, seat) -> str:
    for p in view.get("players") or []:
        if p.get("seat") == seat:
            return p.get("name") or ""
    return ""


def wrap(text: str, width: float, size: float) -> list[str]:
    """``text`` in lines no wider than ``width`` (SVG text does not wrap): broken at spaces,
    and a run too long for a line (a Chinese or Japanese sentence has no spaces) between any
    two of its characters."""
    lines = [""]
    for word in text.split(" "):
        candidate = f"{lines[-1]} {word}" if lines[-1] else word
        if text_width(candidate, size) <= width:
            lines[-1] = candidate
            continue
        if text_width(word, size) <= width:
            lines.append(word)
            continue
        if lines[-1]:
            lines[-1] += " "
        for char in word:
            if lines[-1] and text_width(lines[-1] + char, size) > width:
                lines.append("")
            lines[-1] += char
    return lines


def fit(text: str, width: float, size: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` (SVG text does not wrap)."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


# ------------------------------------------------------------------ symbols

def _symbol(kind: str, x: float, y: float, s: float = 1.0) -> str:
    """A card's symbol, drawn around (``x``, ``y``) in a box of about 24 × 24 times ``s``."""
    t = f'transform="translate({x:.1f} {y:.1f}) scale({s})"'
    if kind == "treasure":
        return (f'<g {t}><polygon points="-10,-3 -5,-9 5,-9 10,-3 0,10" fill="#2a8c82" '
                f'stroke="#134e48" stroke-width="1.2"/><path d="M-10,-3 H10" '
                f'stroke="#134e48"/><polygon points="-5,-9 -3,-3 0,10 3,-3 5,-9" '
                f'fill="#7fd3c7" stroke="#134e48" stroke-width=".8"/></g>')
    if kind == "artifact":
        return (f'<g {t}><path d="M-4,-10 H4 V-7 C10,-4 10,6 5,10 H-5 C-10,6 -10,-4 -4,-7 Z" '
                f'fill="#b8733b" stroke="#5a3212" stroke-width="1.2"/>'
                f'<path d="M-7,0 H7" stroke="#f3d9a8" stroke-width="2"/></g>')
    if kind == "spiders":
        legs = "".join(f'<path d="M0,0 L{dx},{dy} L{dx * 1.4:.0f},{dy + 4}" fill="none" '
                       f'stroke="#1d1b16" stroke-width="1.3"/>'
                       for dx in (-9, 9) for dy in (-7, -2, 3, 8))
        return (f'<g {t}>{legs}<circle cx="0" cy="1" r="5" fill="#1d1b16"/>'
                f'<circle cx="0" cy="-5" r="3" fill="#1d1b16"/></g>')
    if kind == "mummies":
        bands = "".join(f'<path d="M-6,{y0} L6,{y0 + 2}" stroke="#a89467" stroke-width="1"/>'
                        for y0 in (-6, -1, 4, 8))
        return (f'<g {t}><rect x="-7" y="-11" width="14" height="22" rx="6" fill="#efe6cf" '
                f'stroke="#5d574b" stroke-width="1.2"/>{bands}'
                f'<circle cx="-2.5" cy="-4" r="1.4" fill="#9b1c1c"/>'
                f'<circle cx="2.5" cy="-4" r="1.4" fill="#9b1c1c"/></g>')
    if kind == "fire":
        return (f'<g {t}><path d="M0,-11 C4,-5 9,-2 8,4 C7,9 3,11 0,11 C-3,11 -8,9 -8,3 '
                f'C-8,-2 -4,-3 -3,-8 C-1,-5 0,-4 0,-11 Z" fill="#d9480f" stroke="#7a1f05" '
                f'stroke-width="1"/><path d="M0,-2 C3,2 4,5 3,8 C1,10 -2,10 -3,8 C-4,5 -2,3 0,-2 Z" '
                f'fill="#fcc419"/></g>')
    if kind == "snakes":
        return (f'<g {t}><path d="M-10,8 C-6,2 -2,12 2,6 C6,0 -4,-2 0,-7" fill="none" '
                f'stroke="#2b8a3e" stroke-width="3.5" stroke-linecap="round"/>'
                f'<ellipse cx="2" cy="-8" rx="4" ry="3" fill="#2b8a3e"/>'
                f'<path d="M5,-8 L9,-9 M5,-8 L9,-7" stroke="#9b1c1c" stroke-width=".9"/></g>')
    if kind == "rockfall":
        return (f'<g {t}><polygon points="-10,10 -8,2 -2,0 1,6 -2,10" fill="#868e96" '
                f'stroke="#343a40" stroke-width="1"/><polygon points="0,10 3,2 9,3 10,10" '
                f'fill="#adb5bd" stroke="#343a40" stroke-width="1"/><polygon points="-4,-4 -1,-11 '
                f'5,-9 4,-3" fill="#868e96" stroke="#343a40" stroke-width="1"/></g>')
    return (f'<g {t}><polygon points="0,-10 10,9 -10,9" fill="#fcc419" stroke="#1d1b16"/>'
            f'<path d="M0,-3 V4" stroke="#1d1b16" stroke-width="2"/></g>')


def symbol_kind(card: dict) -> str:
    return card.get("hazard") if card.get("type") == "hazard" else card.get("type", "")


def icon(kind: str, size: int = 18) -> Markup:
    """A card's symbol as a small inline SVG for the page's text, hidden from screen readers
    (the words beside it say the same)."""
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" class="ig-icon" viewBox="-12 -12 24 24" '
                  f'width="{size}" height="{size}" aria-hidden="true" focusable="false">'
                  f'{_symbol(kind, 0, 0)}</svg>')


# ------------------------------------------------------------------ the SVG

def _text(x: float, y: float, text: str, size: float = 11, fill: str = INK, weight: str = "",
          anchor: str = "") -> str:
    bold = f' font-weight="{weight}"' if weight else ""
    align = f' text-anchor="{anchor}"' if anchor else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}"{bold}{align}>'
            f'{_e(text)}</text>')


def _card(card: dict, x: float, y: float, doubled: bool, newest: bool, step: int) -> str:
    """One card of the path; ``doubled``: the second card of its hazard, which ended the
    round."""
    kind = card.get("type")
    fill, border, ink = CARD_COLOURS["twice" if doubled else kind] \
        if kind in CARD_COLOURS else CARD_COLOURS["artifact"]
    title = _("card %(n)s: %(what)s", n=step, what=card_words(card))
    if doubled:
        title += _("; ") + _("the second one: it ended the round")
    outline = (f'<rect x="{x - 2.5:.1f}" y="{y - 2.5:.1f}" width="{CARD_W + 5:.1f}" '
               f'height="{CARD_H + 5}" rx="9" fill="none" stroke="{NEWEST}" stroke-width="2.5"/>'
               if newest else "")
    cx = x + CARD_W / 2
    if kind == "treasure":
        lines = [(gems(card.get("value") or 0), "700"), (_("%(n)s left", n=card.get("gems_left") or 0), "")]
    elif kind == "hazard":
        lines = [(hazard_name(card.get("hazard")), "700")]
        if doubled:
            lines.append((_("twice!"), "700"))
    else:
        lines = [(_("Artifact"), "700")]
        if card.get("value"):
            lines.append((gems(card["value"]), ""))
    out = [f'<g class="ig-card" data-kind="{_e(kind)}"><title>{_e(title)}</title>{outline}',
           f'<rect x="{x:.1f}" y="{y}" width="{CARD_W:.1f}" height="{CARD_H}" rx="7" fill="{fill}" '
           f'stroke="{border}" stroke-width="2"/>',
           _symbol(symbol_kind(card), cx, y + 21)]
    for i, (line, weight) in enumerate(lines):
        out.append(_text(cx, y + 48 + i * LINE_H, fit(line, CARD_W - 6, 11), 11, ink, weight,
                         "middle"))
    out.append("</g>")
    return "".join(out)


def _path(path: list[dict], top: float, newest: bool) -> tuple[str, float]:
    """The cards in rows of five, in the order they were turned; returns (markup, bottom)."""
    out = []
    for i, (card, doubled) in enumerate(zip(path, second_hazards(path))):
        row, col = divmod(i, COLUMNS)
        out.append(_card(card, PAD + col * (CARD_W + GAP), top + row * (CARD_H + GAP), doubled,
                         newest and i == len(path) - 1, i + 1))
    rows = (len(path) + COLUMNS - 1) // COLUMNS
    return "".join(out), top + rows * (CARD_H + GAP)


def _hazards_seen(path: list[dict], top: float) -> tuple[str, float]:
    """Each hazard kind on the path once, its symbol and name, "twice!" if seen twice."""
    kinds = hazard_kinds(path)
    if not kinds:
        return "", top
    twice = seen_twice(path)
    heading = _("Hazards seen:")
    out = [_text(PAD, top + 14, heading, 11, INK, "700")]
    x, y = PAD + text_width(heading, 11) + 8, top
    for kind in kinds:
        label = hazard_name(kind) + (" " + _("(twice!)") if kind in twice else "")
        width = 24 + text_width(label, 11) + 10
        if x + width > WIDTH - PAD:
            x, y = PAD, y + 22
        out.append(f'<g class="ig-hazard-seen" data-hazard="{_e(kind)}">'
                   + _symbol(kind, x + 9, y + 10, .75)
                   + _text(x + 23, y + 14, label, 11, "#9b1c1c" if kind in twice else INK,
                           "700" if kind in twice else "") + "</g>")
        x += width
    return "".join(out), y + 24


def _explorer(view: dict, player: dict, x: float, y: float) -> tuple[str, int]:
    """One explorer: a counter in the seat's colour, the name, where they are and what they
    carry, their tent (or that it is hidden) and their artifacts."""
    c = seat_colour(player.get("seat"))
    name = player.get("name") or ""
    if player.get("seat") == view.get("you") and view.get("you") is not None:
        name = _("%(name)s (you)", name=name)
    said = ([_("carrying %(gems)s", gems=gems(player.get("carrying") or 0))]
            if player.get("in_temple") else []) + [tent_words(player)]
    if player.get("artifacts"):
        said.append(artifacts_words(player))
    title = _("; ").join([name, where_words(player)] + said[-2 if player.get("artifacts") else -1:])
    width = ENTRY_W - 24
    lines = [line for text in said for line in wrap(text, width, 11)]
    out = [f'<g class="ig-explorer" data-seat="{_e(player.get("seat"))}"><title>{_e(title)}</title>',
           f'<circle cx="{x + 9:.1f}" cy="{y + 9:.1f}" r="8.5" fill="{c["fill"]}" stroke="{WHITE}" '
           f'stroke-width="1.5"/>',
           _text(x + 9, y + 13, (player.get("name") or "?")[:1], 11, c["ink"], "700", "middle"),
           _text(x + 22, y + 13, fit(name, width, 11.5), 11.5, INK, "700")]
    for i, line in enumerate(lines):
        out.append(_text(x + 22, y + 13 + (i + 1) * LINE_H, line, 11, MUTED))
    out.append("</g>")
    return "".join(out), len(lines) + 1


def _explorers(view: dict, players: list[dict], heading: str, top: float) -> tuple[str, float]:
    """A heading and its explorers in two columns."""
    out = [_text(PAD, top + 14, heading, 12, INK, "700")]
    y, tallest = top + 22, 0
    for i, player in enumerate(players):
        col = i % 2
        markup, lines = _explorer(view, player, PAD + col * (ENTRY_W + GAP), y)
        out.append(markup)
        tallest = max(tallest, lines)
        if col == 1 or i == len(players) - 1:
            y += tallest * LINE_H + 8
            tallest = 0
    return "".join(out), y + 2


def _rounds(view: dict) -> str:
    """The heading ("Round 2 of 5, turn 3") and a temple marker per round right of it."""
    rnd, last = int(view.get("round") or 0), int(view.get("rounds") or 5)
    heading = _("Round %(round)s of %(rounds)s", round=rnd, rounds=last)
    if view.get("game_over"):
        heading += _(", game over")
    elif view.get("turn"):
        heading += _(", turn %(turn)s", turn=view["turn"])
    out = [_text(PAD, 22, heading, 13, INK, "700")]
    start = max(PAD + text_width(heading, 13) + 14, WIDTH - PAD - 10 - (last - 1) * 22)
    if start + (last - 1) * 22 + 10 > WIDTH - PAD:
        return "".join(out)
    for n in range(1, last + 1):
        x = start + (n - 1) * 22
        now = n == rnd and not view.get("game_over")
        done = n < rnd or view.get("game_over")
        fill = NEWEST if now else "#c9bd9f" if done else WHITE
        title = _("round %(n)s (now)", n=n) if now else _("round %(n)s", n=n)
        out.append(f'<g><title>{_e(title)}</title><polygon points="{x - 10},{28} {x},{6} {x + 10},{28}" '
                   f'fill="{fill}" stroke="#8d7a4f"/>'
                   + _text(x, 26, str(n), 11, WHITE if now else INK, "700", "middle") + "</g>")
    return "".join(out)


def description(view: dict) -> str:
    """The picture in words, for screen readers."""
    parts = []
    path = view.get("path") or []
    if path:
        parts.append(_("The path: %(cards)s", cards=_(", ").join(card_words(c) for c in path)))
    ended = ended_round(view)
    if ended:
        parts.append(ended_words(ended, view))
    for p in view.get("players") or []:
        extra = [where_words(p), tent_words(p)] + ([artifacts_words(p)] if p.get("artifacts") else [])
        parts.append(_("%(name)s: %(what)s", name=p.get("name"), what=_(", ").join(extra)))
    return _("; ").join(parts)


def svg(view: dict) -> Markup:
    """The expedition as one inline SVG that scales to any width (its ``viewBox``)."""
    players = view.get("players") or []
    inside = [p for p in players if p.get("in_temple")]
    camp = [p for p in players if not p.get("in_temple")]
    out, y = [_rounds(view)], 36.0
    ended = ended_round(view)
    if ended:
        lines = wrap(ended_words(ended, view), WIDTH - 2 * PAD, 11.5)
        for i, line in enumerate(lines):
            out.append(_text(PAD, y + 14 + i * 15, line, 11.5, INK, "700"))
        cards, y = _path(ended.get("path") or [], y + 7 + 15 * len(lines), False)
        seen, y = _hazards_seen(ended.get("path") or [], y)
        out += [cards, seen]
    path = view.get("path") or []
    if inside:
        markup, y = _explorers(view, inside, ngettext("Still in the temple: %(n)s explorer",
                                                      "Still in the temple: %(n)s explorers",
                                                      len(inside)), y)
        out.append(markup)
    if path:
        gems_left = sum(c.get("gems_left") or 0 for c in path)
        heading = _("The path, %(gems)s left on it", gems=gems(gems_left))
        out.append(_text(PAD, y + 14, heading, 12, INK, "700"))
        cards, y = _path(path, y + 22, True)
        seen, y = _hazards_seen(path, y)
        out += [cards, seen]
    if camp:
        markup, y = _explorers(view, camp, ngettext("Back at camp: %(n)s explorer",
                                                    "Back at camp: %(n)s explorers", len(camp)), y)
        out.append(markup)
    height = y + 6
    title = _("The temple, round %(round)s of %(rounds)s", round=view.get("round"),
              rounds=view.get("rounds"))
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="ig-board" viewBox="0 0 {WIDTH} '
            f'{height:.0f}" role="img" aria-labelledby="ig-svg-title ig-svg-desc" '
            f'font-family="{FONT}"><title id="ig-svg-title">{_e(title)}</title>'
            f'<desc id="ig-svg-desc">{_e(description(view))}</desc>'
            f'<rect x="0" y="0" width="{WIDTH}" height="{height:.0f}" rx="10" fill="{PAPER}"/>')
    return Markup(head + "".join(out) + "</svg>")


# ------------------------------------------------------------------ mail

def _mail_card(card: dict, doubled: bool) -> str:
    kind = card.get("type")
    fill, border, ink = CARD_COLOURS["twice" if doubled else kind] \
        if kind in CARD_COLOURS else CARD_COLOURS["artifact"]
    if kind == "treasure":
        words = (f'<strong>{_e(gems(card.get("value") or 0))}</strong><br>'
                 f'{_e(_("%(n)s left", n=card.get("gems_left") or 0))}')
    elif kind == "hazard":
        words = f'<strong>{_e(hazard_name(card.get("hazard")))}</strong>'
        if doubled:
            words += f'<br>{_e(_("twice!"))}'
    else:
        words = f'<strong>{_e(_("Artifact"))}</strong>'
        if card.get("value"):
            words += f'<br>{_e(gems(card["value"]))}'
    return (f'<td style="width:58px;height:52px;padding:3px;text-align:center;vertical-align:middle;'
            f'font-size:12px;line-height:15px;border:2px solid {border};border-radius:6px;'
            f'background:{fill};color:{ink};">{words}</td>')


def _mail_path(path: list[dict]) -> str:
    rows, cells = [], [_mail_card(c, doubled) for c, doubled in zip(path, second_hazards(path))]
    for start in range(0, len(cells), COLUMNS):
        rows.append("<tr>" + "".join(cells[start:start + COLUMNS]) + "</tr>")
    table = (f'<table role="presentation" cellpadding="0" cellspacing="4" style="border-collapse:'
             f'separate;margin:0 0 6px 0;">{"".join(rows)}</table>')
    if hazard_kinds(path):
        table += (f'<p style="margin:0 0 8px 0;color:{INK};font-size:14px;">'
                  f'{_e(_("Hazards seen:"))} {_e(hazards_seen_words(path))}</p>')
    return table


def mail_html(view: dict) -> Markup:
    """The same picture for mail: the path as a table of cards, then the explorers."""
    out = []
    ended = ended_round(view)
    if ended:
        out.append(f'<p style="margin:0 0 4px 0;color:{INK};font-size:14px;">'
                   f'<strong>{_e(ended_words(ended, view))}</strong></p>')
        out.append(_mail_path(ended.get("path") or []))
    path = view.get("path") or []
    if path:
        heading = _("The path, %(gems)s left on it",
                    gems=gems(sum(c.get("gems_left") or 0 for c in path)))
        out.append(f'<p style="margin:6px 0 2px 0;color:{INK};font-size:14px;">'
                   f'<strong>{_e(heading)}</strong></p>')
        out.append(_mail_path(path))
    cell = f'border-bottom:1px solid #ddd3bf;padding:4px;color:{INK};vertical-align:top;'
    rows = []
    for p in view.get("players") or []:
        c = seat_colour(p.get("seat"))
        me = p.get("seat") == view.get("you") and view.get("you") is not None
        name = _("%(name)s (you)", name=p.get("name")) if me else p.get("name")
        chip = (f'<span style="display:inline-block;min-width:16px;padding:0 5px;border-radius:9px;'
                f'background:{c["fill"]};color:{c["ink"]};font-weight:bold;text-align:center;">'
                f'{_e((p.get("name") or "?")[:1])}</span>')
        where = _("inside") if p.get("in_temple") else _("in camp")
        carrying = gems(p.get("carrying") or 0) if p.get("in_temple") else "–"
        tent = gems(p["tent"]) if p.get("tent") is not None else _("hidden")
        artifacts = artifacts_words(p) or "–"
        background = "background:#fff3d6;" if me else ""
        rows.append(f'<tr style="{background}"><td style="{cell}">{chip} {_e(name)}</td>'
                    + "".join(f'<td style="{cell}">{_e(v)}</td>'
                              for v in (where, carrying, tent, artifacts)) + "</tr>")
    head = "".join(f'<th style="text-align:left;padding:4px;border-bottom:2px solid #ddd3bf;'
                   f'color:{INK};">{_e(h)}</th>'
                   for h in (_("Player"), _("Where"), _("Carrying"), _("Tent"), _("Artifacts")))
    out.append(f'<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:'
               f'collapse;width:100%;font-size:14px;margin:0 0 8px 0;"><tr>{head}</tr>'
               f'{"".join(rows)}</table>')
    return Markup("".join(out))
