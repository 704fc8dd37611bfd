"""The Princes of Machu Picchu, drawn from ``engine.view`` output.

``svg(view)`` is the city for the play page: the 15 districts (positions below, a data table)
joined by their neighbour paths, princes, Incas per colour, bonus goods and temple stones, the
Sun Clock, the Incatrail 0–20 with scouts, and the day track.  ``mail_html(view)`` is the same
table as inline-styled HTML tables (mail clients drop SVG and external CSS).  ``group_actions``
sorts a seat's legal actions the way a player thinks about a turn, and ``score_estimate`` is
what the seat's own cards are worth right now.  Pure functions: view in, markup out.
"""
from __future__ import annotations

from html import escape

from markupsafe import Markup

from engine.games.machu_picchu import data, plaza, rules
from engine.text import N_, Phrase, phrase
from service.view.drawing import _, int_keys, ngettext, seat_colour, text_width
from service.view.punctuation import labelled, separator

GOODS = ("corn", "llama", "coca", "pottery", "cloth")
PRIEST_NAME = {kind: p["name"] for kind, p in data.PRIESTS.items()}
# Fixed texts (catalog msgids, domain machu_picchu): templates show them with ``| tr``.
MOON_TILE_TEXT = {"corn3": N_("3 corn"), "steps2": N_("2 trail steps"),
                  "steps3": N_("3 trail steps"), "llama": N_("1 llama for 1 corn"),
                  "coca": N_("1 coca for 1 corn"), "pottery": N_("1 pottery for 1 corn"),
                  "cloth": N_("1 cloth for 1 corn")}
PHASE_TEXT = {  # view["phase"]: the front frame of the engine's queue (rules.py)
    "free_inca": N_("placing the free Incas"), "move": N_("moving a Prince"),
    "place": N_("placing Incas"), "house": N_("taking a Priest or Virgin"),
    "plaza": N_("trading at the Central Plaza"), "clock": N_("sending an Inca to the Sun Clock"),
    "clock_goods": N_("taking goods for a Sun Clock Inca"), "produce": N_("production"),
    "sacrifice": N_("sacrifices"), "summit": N_("returning cards at the summit"),
    "moon_night": N_("night"), "end_turn": N_("between turns"), "night_end": N_("night"),
    "over": N_("game over"), "idle": N_("between turns"),
}
REASON_TEXT = {"rescue_priests": N_("every Priest and Virgin is taken: Machu Picchu is saved"),
               "rescue_deck": N_("the Sacrifice Cards ran out: Machu Picchu is saved"),
               "conquest": N_("the Spanish conquest")}

# Where each district sits in the city picture: (column 0-3, row 0-5) of a grid.  Chosen by a
# small search so that no path runs under another district's box and few paths cross.
GRID = {
    "llama_meadow": (2, 0), "puma_temple": (3, 0),
    "house_of_virgins": (0, 1), "watchmans_hut": (1, 1),
    "house_of_priests": (0, 2), "central_plaza": (1, 2), "corn_terraces": (2, 2),
    "sun_temple": (3, 3),
    "royal_palace": (0, 4), "coca_plantation": (1, 4), "main_temple": (2, 4), "sun_clock": (3, 4),
    "potters_quarter": (0, 5), "weavers_quarter": (1, 5), "condor_temple": (2, 5),
}
CITY_W, COL_W, ROW_H, BOX_W, BOX_H = 440, 110, 82, 98, 68
CITY_H = 6 * ROW_H + 8
POSITIONS = {d: (4 + COL_W / 2 + c * COL_W, 8 + ROW_H / 2 + r * ROW_H)
             for d, (c, r) in GRID.items()}
# Each district's colour; its name says what it is (no emoji icons: without an emoji font
# they are empty boxes).
FILL = {
    "corn_terraces": "#fbf0c9", "llama_meadow": "#e6f1dc", "coca_plantation": "#dcefe0",
    "potters_quarter": "#f6e3d6", "weavers_quarter": "#ece2f4", "sun_temple": "#fff1c2",
    "puma_temple": "#f7e6cf", "condor_temple": "#e3e9f3", "main_temple": "#f2e4c4",
    "watchmans_hut": "#efe7d6", "royal_palace": "#f6e7b8", "house_of_priests": "#efe3f0",
    "house_of_virgins": "#f9e4ea", "central_plaza": "#e4eef2", "sun_clock": "#fff4cf",
}
TEMPLES = ("sun_temple", "puma_temple", "condor_temple", "main_temple")
PRODUCTION = {"corn_terraces": "corn", "llama_meadow": "llama", "coca_plantation": "coca",
              "potters_quarter": "pottery", "weavers_quarter": "cloth"}
ICON_DISTRICT = {good: district for district, good in PRODUCTION.items()}
TRAIL_MARKS = {7: N_("granary: 3 corn"), 13: N_("llama stable: 1 llama"),
               20: N_("summit: draw sacrifice cards")}
SUMMIT = 20
TRAIL_TOP = CITY_H + 28
INK, MUTED, PATH = "#1d1b16", "#5d574b", "#a89467"


# ------------------------------------------------------------------ helpers

def _e(value) -> str:
    return escape(str(value), quote=True)


def district_name(view: dict, district: str) -> str:
    """The district's name in the page's or mail's language (the view holds the English)."""
    entry = (view.get("districts") or {}).get(district) or {}
    return _(entry.get("name") or district.replace("_", " ").title())


def icons_text(icons, between: str = " + ") -> str:
    """A Sacrifice Card's icons by name ("cloth + condor"), in the current language."""
    return between.join(_(data.ICON_NAMES.get(i, i)) for i in icons)


def player_name(view: dict, seat) -> str:
    for p in view.get("players") or []:
        if p.get("seat") == seat:
            return p.get("name", f"Seat {seat}")
    return f"Seat {seat}"


def you(view: dict) -> dict | None:
    seat = view.get("you")
    for p in view.get("players") or []:
        if seat is not None and p.get("seat") == seat:
            return p
    return None


def edges(view: dict) -> list[tuple[str, str]]:
    """Each neighbour pair once, from the view's own neighbour lists."""
    seen = set()
    for district, entry in (view.get("districts") or {}).items():
        for other in entry.get("neighbours", ()):
            if district in POSITIONS and other in POSITIONS:
                seen.add(tuple(sorted((district, other))))
    return sorted(seen)


def good_count(good: str, n: int) -> str:
    """``n`` of a good: "2 llamas", but "3 corn" (the other goods are mass nouns), as
    ``engine.games.machu_picchu.rules.good_count`` says it."""
    if good == "llama":
        return ngettext("%(n)s llama", "%(n)s llamas", n)
    return _("%(n)s %(good)s", n=n, good=_(good))


def bonus_text(goods: dict) -> str:
    """A district's bonus goods in words: "+3 corn", "+1 llama"."""
    return " ".join("+" + good_count(g, k) for g, k in goods.items() if k)


def goods_text(goods: dict) -> str:
    return _(", ").join(good_count(g, n) for g, n in goods.items() if n) \
        or _("nothing")



def score_estimate(view: dict) -> dict | None:
    """What the seat's own Sacrifice Cards are worth now: production icon = 1 VP per own Inca
    in that district, temple icon = 1 VP per own priest/virgin of that kind, + the trail bonus,
    + 3 VP per card still owed; gold = card gold + trail bonus."""
    me = you(view)
    if me is None:
        return None
    seat = me["seat"]
    cards = view.get("your_cards") or []
    lines, vp = [], 0
    for card in cards:
        worth = 0
        for icon in card.get("icons", ()):
            if icon in ICON_DISTRICT:
                incas = int_keys((view.get("districts", {}).get(ICON_DISTRICT[icon]) or {})
                                 .get("incas"))
                worth += incas.get(seat, 0)
            else:
                worth += (me.get("priests") or {}).get(icon, 0)
        vp += worth
        lines.append({"card": card, "vp": worth})
    bonus = data.trail_bonus(me.get("scout") or 0)
    owed = me.get("cards_owed", 0) or 0
    gold = sum(c.get("gold", 0) for c in cards) + bonus
    return {"vp": vp + bonus + data.OWED_CARD_VP * owed, "cards_vp": vp, "trail_bonus": bonus, "owed": owed,
            "gold": gold, "cards": lines}


# ------------------------------------------------------------------ the SVG

def wrap(name: str, width: int = 10) -> list[str]:
    """District names on at most two lines of a box.  A Chinese or Japanese name has no
    spaces: a long one is cut in the middle (its characters are twice as wide)."""
    if " " not in name and not name.isascii() and len(name) > width // 2 + 1:
        half = (len(name) + 1) // 2
        return [name[:half], name[half:]]
    words, lines = name.split(), [""]
    for word in words:
        if lines[-1] and len(lines[-1]) + 1 + len(word) > width and len(lines) < 2:
            lines.append(word)
        else:
            lines[-1] = f"{lines[-1]} {word}".strip()
    return lines


def _token(x: float, y: float, seat: int, text: str, title: str, r: float = 8.5) -> str:
    c = seat_colour(seat)
    return (f'<g><title>{_e(title)}</title>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{c["fill"]}" stroke="#ffffff" '
            f'stroke-width="1.5"/>'
            f'<text x="{x:.1f}" y="{y + 3.8:.1f}" text-anchor="middle" font-size="11" '
            f'font-weight="700" fill="{c["ink"]}">{_e(text)}</text></g>')


def _prince(x: float, y: float, seat: int, name: str, district: str) -> str:
    c = seat_colour(seat)
    pts = f"{x - 7:.1f},{y + 5:.1f} {x - 7:.1f},{y - 5:.1f} {x - 3.5:.1f},{y - 1:.1f} " \
          f"{x:.1f},{y - 7:.1f} {x + 3.5:.1f},{y - 1:.1f} {x + 7:.1f},{y - 5:.1f} " \
          f"{x + 7:.1f},{y + 5:.1f}"
    title = _("%(name)s’s Prince is here (%(district)s)", name=name, district=district)
    return (f'<g><title>{_e(title)}</title>'
            f'<polygon points="{pts}" fill="{c["fill"]}" stroke="{INK}" stroke-width="1.2"/></g>')


def _district(view: dict, district: str, entry: dict, mine: dict | None) -> str:
    cx, cy = POSITIONS[district]
    x, y = cx - BOX_W / 2, cy - BOX_H / 2
    fill = FILL.get(district, "#ffffff")
    name = district_name(view, district)
    incas = int_keys(entry.get("incas"))
    princes = [p for p in view.get("players", []) if p.get("prince") == district]
    here = mine.get("prince") if mine else None
    stroke, width, dash = "#8d7a4f", 1.5, ""
    if here == district:
        stroke, width = "#1a56db", 4
    elif here and district in ((view.get("districts") or {}).get(here) or {}).get("neighbours", ()):
        stroke, width, dash = "#1a56db", 2, ' stroke-dasharray="5 3"'
    if entry.get("used_today"):
        fill = "#e4ded0"
    details = [name]
    if incas:
        details.append(_("Incas: %(who)s", who=_(", ").join(
            f"{player_name(view, s)} {n}" for s, n in sorted(incas.items()))))
    bonus = entry.get("bonus") or 0
    if district in TEMPLES and bonus:
        details.append(ngettext("%(n)s temple stone", "%(n)s temple stones", bonus))
    elif entry.get("bonus_goods") and bonus:
        details.append(_("bonus: %(goods)s", goods=goods_text(entry["bonus_goods"])))
    if princes:
        details.append(_("Princes: %(names)s", names=_(", ").join(p["name"] for p in princes)))
    if entry.get("used_today"):
        details.append(_("used today"))
    if here == district:
        details.append(_("your Prince is here"))
    out = [f'<g class="mp-district" id="mp-{_e(district)}" data-district="{_e(district)}">',
           f'<title>{_e(separator("clause").join(details))}</title>',
           f'<rect x="{x:.1f}" y="{y:.1f}" width="{BOX_W}" height="{BOX_H}" rx="9" '
           f'fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dash}/>']
    for i, line in enumerate(wrap(name)):
        out.append(f'<text x="{cx:.1f}" y="{y + 14 + i * 13:.1f}" text-anchor="middle" '
                   f'font-size="11.5" font-weight="700" fill="{INK}">{_e(line)}</text>')
    # Incas per colour (Sun Clock too): one counter per seat.
    if incas:
        n = len(incas)
        start = cx - (n - 1) * 10
        for i, (seat, count) in enumerate(sorted(incas.items())):
            out.append(_token(start + i * 20, cy + 12, seat, str(count),
                              ngettext("%(name)s: %(n)s Inca", "%(name)s: %(n)s Incas", count,
                                       name=player_name(view, seat))))
    # Bonus goods / temple stones, bottom left.
    if bonus:
        if district in TEMPLES:
            stone = _("temple stone")
            for i in range(int(bonus)):
                out.append(f'<rect x="{x + 7 + i * 13:.1f}" y="{y + BOX_H - 15:.1f}" width="10" '
                           f'height="10" rx="1.5" fill="#6b6b6b" stroke="{INK}" stroke-width=".8">'
                           f'<title>{_e(stone)}</title></rect>')
        elif entry.get("bonus_goods"):
            label = bonus_text(entry["bonus_goods"])
            out.append(f'<text x="{x + 6:.1f}" y="{y + BOX_H - 6:.1f}" font-size="10.5" '
                       f'fill="{INK}">{_e(label)}</text>')
    # Princes along the bottom right.
    for i, p in enumerate(princes):
        out.append(_prince(x + BOX_W - 11 - i * 16, y + BOX_H - 10, p["seat"], p["name"], name))
    out.append("</g>")
    return "".join(out)


def _trail(view: dict) -> str:
    cell = 19
    x0 = (CITY_W - (SUMMIT + 1) * cell) / 2
    top = TRAIL_TOP
    # (texts outside the f-strings: pybabel does not look inside them)
    heading, marks = _("Incatrail"), _("7: 3 corn · 13: 1 llama · 20: summit")
    out = [f'<text x="{x0:.1f}" y="{top - 8}" font-size="12" font-weight="700" fill="{INK}">'
           f'{_e(heading)}</text>',
           f'<text x="{CITY_W - x0:.1f}" y="{top - 8}" font-size="10.5" text-anchor="end" '
           f'fill="{MUTED}">{_e(marks)}</text>']
    for field in range(SUMMIT + 1):
        fx = x0 + field * cell
        fill = "#ffffff" if field < 7 else "#f7ecd0" if field < 13 else "#efd9a6" if field < 20 \
            else "#d9c48a"
        out.append(f'<rect x="{fx:.1f}" y="{top}" width="{cell}" height="22" fill="{fill}" '
                   f'stroke="#8d7a4f" stroke-width=".8"/>')
        mark = TRAIL_MARKS.get(field)
        weight = ' font-weight="700"' if mark else ""
        title = ("<title>" + _e(_("field %(n)s: %(what)s", n=field, what=_(mark))) + "</title>"
                 if mark else "")
        out.append(f'<text x="{fx + cell / 2:.1f}" y="{top + 15}" text-anchor="middle" '
                   f'font-size="9"{weight} fill="{INK}">{title}{field}</text>')
    stacks: dict[int, int] = {}
    for p in view.get("players", []):
        field = max(0, min(SUMMIT, int(p.get("scout") or 0)))
        level = stacks.get(field, 0)
        stacks[field] = level + 1
        out.append(_token(x0 + field * cell + cell / 2, top + 33 + level * 15, p["seat"],
                          p["name"][:1], _("%(name)s’s scout on field %(n)s", name=p["name"], n=field), r=7))
    return "".join(out)


def _scout_depth(view: dict) -> int:
    """How many scouts share the busiest field (they stack under the trail)."""
    fields = [max(0, min(SUMMIT, int(p.get("scout") or 0))) for p in view.get("players", [])]
    return max((fields.count(f) for f in set(fields)), default=0)


DAY_RADIUS, DAY_GAP = 11, 33


def _days(view: dict, top: float) -> str:
    """The heading ("Day 3 of 9") and a circle per day right of it: the circles start where
    the heading ends in the reader's language, and close up when that leaves too little room."""
    day, last = int(view.get("day") or 0), int(view.get("last_day") or 9)
    heading = _("Day %(day)s of %(days)s", day=day, days=last)
    out = [f'<text x="10" y="{top + 16}" font-size="12" font-weight="700" fill="{INK}">'
           f'{_e(heading)}</text>']
    first = max(110.0, 10 + text_width(heading, 12) + 6 + DAY_RADIUS)
    gap = min(DAY_GAP, (CITY_W - 4 - DAY_RADIUS - first) / max(1, last - 1))
    for d in range(1, last + 1):
        x = round(first + (d - 1) * gap, 1)
        done, now = d < day, d == day
        fill = "#1a56db" if now else "#c9bd9f" if done else "#ffffff"
        title = _("day %(n)s (today)", n=d) if now else _("day %(n)s", n=d)
        out.append(f'<g><title>{_e(title)}</title>'
                   f'<circle cx="{x}" cy="{top + 12}" r="{DAY_RADIUS}" fill="{fill}" stroke="#8d7a4f"/>'
                   f'<text x="{x}" y="{top + 16}" text-anchor="middle" font-size="11" '
                   f'fill="{"#ffffff" if now else INK}">{d}</text></g>')
    return "".join(out)


def svg(view: dict) -> Markup:
    """The city, the Incatrail and the day track as one inline SVG."""
    mine = you(view)
    districts = view.get("districts") or {}
    day_top = TRAIL_TOP + 34 + 15 * _scout_depth(view)
    height = day_top + 32
    title = _("Machu Picchu, day %(day)s of %(days)s", day=view.get("day"), days=view.get("last_day"))
    desc = separator("clause").join(
        labelled(district_name(view, k), _(", ").join(
            f"{player_name(view, s)} {n}" for s, n in sorted(int_keys(d.get('incas')).items()))
            or _("no Incas"))
        for k, d in districts.items())
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="mp-board" viewBox="0 0 {CITY_W} {height:.0f}" '
           f'role="img" aria-labelledby="mp-svg-title mp-svg-desc" '
           f'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif">',
           f'<title id="mp-svg-title">{_e(title)}</title>',
           f'<desc id="mp-svg-desc">{_e(desc)}</desc>',
           f'<rect x="0" y="0" width="{CITY_W}" height="{height:.0f}" fill="#f4ecd9" rx="10"/>']
    for a, b in edges(view):
        (x1, y1), (x2, y2) = POSITIONS[a], POSITIONS[b]
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{PATH}" '
                   f'stroke-width="4" stroke-linecap="round"/>')
    for district in POSITIONS:
        if district in districts:
            out.append(_district(view, district, districts[district], mine))
    out.append(_trail(view))
    out.append(_days(view, day_top))
    out.append("</svg>")
    return Markup("".join(out))


# ------------------------------------------------------------------ actions

def group_actions(view: dict, actions: list) -> list[dict]:
    """The seat's legal actions (``ActionLink``s) in groups: where the Prince goes (to a
    neighbour, anywhere for a llama, or stay for a Moon Tile), then the district's choices."""
    mine = you(view)
    here = mine.get("prince") if mine else None
    near = set(((view.get("districts") or {}).get(here) or {}).get("neighbours", ())) \
        if here else set()
    where = district_name(view, here) if here else None
    order = ["free", "place_prince", "neighbour", "llama", "stay", "summit", "district", "other"]
    titles = {  # shown with ``| tr``: fixed texts are msgids, the rest is already translated
        "free": (N_("Place your free Inca"), N_("Setup: one Inca on a production district.")),
        "place_prince": (N_("Place your Prince"), N_("Start anywhere in the city.")),
        "neighbour": (N_("Move to a neighbour"),
                      _("Paths from %(district)s.", district=where) if where else ""),
        "llama": (N_("Pay 1 llama, go anywhere"), ""),
        "stay": (N_("Stay for a Moon Tile"),
                 _("Stay in %(district)s and take a tile.", district=where) if where else ""),
        "summit": (N_("At the summit"), N_("Keep one card, return the others.")),
        "district": (_("In %(district)s", district=where) if where else N_("Your choices"), ""),
        "other": (N_("Other choices"), ""),
    }
    groups: dict[str, list] = {key: [] for key in order}
    for link in actions:
        action = link.action
        kind = action.get("type")
        if kind == "place_free":
            key = "free"
        elif kind == "move":
            key = "place_prince" if here is None else (
                "neighbour" if action.get("to") in near else "llama")
        elif kind == "stay":
            key = "stay"
        elif kind == "return_card":
            key = "summit"
        elif kind in ("place", "take", "trade", "market_add", "market_remove", "buy", "sell",
                      "sun_clock", "sun_clock_goods", "produce", "sacrifice", "done"):
            key = "district"
        else:
            key = "other"
        groups[key].append(link)
    return [{"key": key, "title": titles[key][0], "hint": titles[key][1], "links": groups[key]}
            for key in order if groups[key]]


# The page's trade form (fields of a GET, so composing never changes the game): the one
# adjustment as "add:<good>" or "remove:<good>", and how many of each good to sell or buy.
TRADE_ADJUST_FIELD = "adjust"
TRADE_GOODS = data.MARKET_GOODS
MOST_IN_A_FIELD = 99


def trade_adjustments() -> list[tuple[str, str, str]]:
    """(form value, way, good) of every adjustment the form offers."""
    return [(f"{way}:{good}", way, good) for way in plaza.ADJUSTMENTS for good in TRADE_GOODS]


def composes_trade(view: dict, actions: list) -> bool:
    """Whether the page offers the trade form: the seat is at the plaza and may trade."""
    return view.get("phase") == "plaza" and any(
        link.action.get("type") == "trade" for link in actions)


def composed_trade(args) -> dict | None:
    """The trade the form's fields ``args`` (a mapping of text) name, in the engine's written
    form, or None when they name none; what the market allows is checked when it is sent."""
    wanted: dict = {"sell": {}, "buy": {}}
    adjust = str(args.get(TRADE_ADJUST_FIELD, ""))
    for value, way, good in trade_adjustments():
        if adjust == value:
            wanted[way] = good
    for way in ("sell", "buy"):
        for good in TRADE_GOODS:
            text = str(args.get(f"{way}_{good}", "")).strip()
            if text.isdigit() and 0 < int(text) <= MOST_IN_A_FIELD:
                wanted[way][good] = int(text)
    if len(wanted) == 2 and not wanted["sell"] and not wanted["buy"]:
        return None
    return plaza.trade(wanted["sell"], wanted["buy"],
                       **{way: wanted[way] for way in plaza.ADJUSTMENTS if way in wanted})


def trade_words(trade: dict) -> list[Phrase]:
    """A composed trade in words, step by step (its prices are the board's: the engine says
    what each came to once it is done)."""
    out = []
    if "add" in trade:
        out.append(phrase("Add 1 {good} from the bank to the market",
                          good=rules.icon(trade["add"])))
    if "remove" in trade:
        out.append(phrase("Remove 1 {good} from the market to the bank",
                          good=rules.icon(trade["remove"])))
    out.extend(phrase("Sell {goods}", goods=rules.good_count(g, n))
               for g, n in trade["sell"].items())
    out.extend(phrase("Buy {goods}", goods=rules.good_count(g, n))
               for g, n in trade["buy"].items())
    return out


def short_label(view: dict, link) -> str:
    """A button text that fits a phone: the group heading already says what kind of move.
    A district name is translated here, a Moon Tile's text and the action's phrase by the
    template's ``| tr``."""
    action = link.action
    kind = action.get("type")
    if kind == "move" or kind == "place_free":
        return district_name(view, action.get("to") or action.get("district"))
    if kind == "stay":
        tile = action.get("tile")
        return MOON_TILE_TEXT.get(tile, str(tile))
    return link.label


# ------------------------------------------------------------------ mail

def _cell(text: str, style: str = "") -> str:
    return (f'<td style="padding:4px 5px;border-bottom:1px solid #ddd3bf;vertical-align:top;'
            f'color:{INK};{style}">{text}</td>')


def _chip(seat, text: str) -> str:
    c = seat_colour(seat)
    return (f'<span style="display:inline-block;min-width:16px;padding:0 5px;margin:0 2px 2px 0;'
            f'border-radius:9px;background:{c["fill"]};color:{c["ink"]};font-weight:bold;'
            f'text-align:center;">{_e(text)}</span>')


def mail_html(view: dict) -> Markup:
    """The same table for mail: inline-styled HTML tables only."""
    districts = view.get("districts") or {}
    mine = you(view)
    rows = []
    for district in POSITIONS:
        entry = districts.get(district)
        if entry is None:
            continue
        name = district_name(view, district)
        incas = int_keys(entry.get("incas"))
        tokens = "".join(_chip(s, f"{player_name(view, s)[:1]}{n}") for s, n in sorted(incas.items()))
        bonus = entry.get("bonus") or 0
        extra = ""
        if district in TEMPLES and bonus:
            extra = "■" * int(bonus) + " " + ngettext("stone", "stones", int(bonus))
        elif entry.get("bonus_goods") and bonus:
            extra = bonus_text(entry["bonus_goods"])
        princes = "".join(_chip(p["seat"], "♛ " + p["name"]) for p in view.get("players", [])
                          if p.get("prince") == district)
        style = "background:#e8f0fe;" if mine and mine.get("prince") == district else ""
        rows.append("<tr>" + _cell(f"<strong>{_e(name)}</strong>",
                                   style)
                    + _cell(tokens or "–", style) + _cell(_e(extra), style)
                    + _cell(princes, style) + "</tr>")
    head = "".join(f'<th style="text-align:left;padding:4px 5px;border-bottom:2px solid #ddd3bf;'
                   f'color:{INK};">{_e(h)}</th>'
                   for h in (_("District"), _("Incas"), _("Bonus"), _("Princes")))
    city = (f'<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:'
            f'collapse;width:100%;font-size:13px;margin:0 0 10px 0;"><tr>{head}</tr>'
            f'{"".join(rows)}</table>')
    # The Incatrail: one row of 21 cells, scouts as initials.
    scouts: dict[int, list] = {}
    for p in view.get("players", []):
        scouts.setdefault(max(0, min(SUMMIT, int(p.get("scout") or 0))), []).append(p)
    cells = []
    for field in range(SUMMIT + 1):
        bg = "#ffffff" if field < 7 else "#f7ecd0" if field < 13 else "#efd9a6" if field < 20 \
            else "#d9c48a"
        mark = TRAIL_MARKS.get(field)
        who = "".join(f'<div style="margin-top:2px;border-radius:8px;background:'
                      f'{seat_colour(p["seat"])["fill"]};color:{seat_colour(p["seat"])["ink"]};'
                      f'font-weight:bold;">{_e(p["name"][:1])}</div>' for p in scouts.get(field, []))
        cells.append(f'<td style="width:14px;padding:1px;border:1px solid #c9b98f;background:{bg};'
                     f'text-align:center;vertical-align:top;font-size:10px;color:{INK};">'
                     f'{f"<strong>{field}</strong>" if mark else field}{who}</td>')
    heading, marks = _("Incatrail"), _("7: 3 corn · 13: 1 llama · 20: summit")
    trail = (f'<p style="margin:8px 0 2px 0;color:{INK};"><strong>{_e(heading)}</strong> '
             f'({_e(marks)})</p>'
             f'<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:'
             f'collapse;margin:0 0 10px 0;"><tr>{"".join(cells)}</tr></table>')
    return Markup(city + trail)
