"""Inca Empire: the table of cards around Cusco, drawn from ``engine.view`` output.

``svg(view)`` is the grid for the play page: one column per region (coastal, plateau,
mountain; Machu Picchu's column when it is out), a card per location with its owner, Fame
tokens, temple and storage huts, and the roads between locations in their builder's colour with
their cost.  ``mail_html(view)`` is the same grid as an inline-styled HTML table.  Card faces
(names, text, goals) come from the engine's public card tables, looked up by the ids the view
gives; the view alone decides which ids a seat may see.

Every word shown is in the page's or mail's language: the board's own texts through
``_``; the engine's terms (card names, regions, goods, card texts) and phrases through ``tr``,
from the ``inca_empire`` catalog (translations/inca_empire.cfg).
"""
from __future__ import annotations

from html import escape

from markupsafe import Markup

from engine.text import N_, phrase, render, term
from service.view.drawing import _, ngettext, seat_colour
from service.view.punctuation import separator

REGIONS = ("coastal", "plateau", "mountain", "Machu Picchu")
REGION_FILL = {"coastal": "#dcecf5", "plateau": "#f3ead2", "mountain": "#e3e0ec",
               "wild": "#e4efdc"}
REGION_BAND = ("#eef5fa", "#faf5e8", "#f1eff6", "#f5f0e2")
# A storage hut's good, drawn in SVG shapes around (0, 0) in a box of about 14 × 14 (no
# emoji: without an emoji font they are empty boxes); its title names the good in words.
GOOD_SYMBOL = {
    "fish": '<ellipse cx="-1.5" cy="0" rx="5" ry="3" fill="#1a5fb4"/>'
            '<polygon points="3,0 7,-3.5 7,3.5" fill="#1a5fb4"/>'
            '<circle cx="-4" cy="-.8" r=".9" fill="#ffffff"/>',
    "corn": '<ellipse cx="0" cy="-1" rx="2.8" ry="5.5" fill="#e0a800" stroke="#7a5610" '
            'stroke-width=".6"/><path d="M0,6 C-5,3 -5,-1 -3,-4 M0,6 C5,3 5,-1 3,-4" '
            'fill="none" stroke="#2b8a3e" stroke-width="1.4"/>',
    "potatoes": '<ellipse cx="-2" cy="1.5" rx="4" ry="3" fill="#9c6b30" stroke="#5a3212" '
                'stroke-width=".6"/><ellipse cx="2.5" cy="-2" rx="3.5" ry="2.6" fill="#b5823f" '
                'stroke="#5a3212" stroke-width=".6"/>',
}
TYPE_TEXT = {"city": N_("city"), "colca": N_("Colca"), "start": N_("start city"),
             "cusco": N_("capital"), "trade": N_("Trade Agreement"),
             "workforce": N_("Extra Workforce")}
# What a step of a card action is called while it is open (view "pending.step").
STEP_TEXT = {"place": N_("placing a card"), "terrace": N_("a Terrace's action"),
             "restrict": N_("placing a Route Restriction"), "stock": N_("stocking storage huts"),
             "temple": N_("building a temple")}
ACTION_GROUPS = (
    ("show", N_("Show cards for the draft"), N_("Chosen face down; everyone reveals together.")),
    ("take", N_("Take a card from the draft"), ""),
    ("build", N_("Build a city or Colca"), ""),
    ("road", N_("Build a road"), ""),
    ("temple", N_("Build a temple"), ""),
    ("stock", N_("Stock a storage hut"), ""),
    ("place", N_("Place"), ""),
    ("restrict", N_("Route restriction"), ""),
    ("workforce", N_("Play Extra Workforce"), ""),
    ("trade", N_("Make a Trade Agreement"), ""),
    ("terrace", N_("Build a Terrace (face down)"), ""),
)
FINISH = {"pass", "skip", "done", "nothing"}
# The grid: a column's and a row's pitch, the gap between cards, the column titles' band, the
# row labels' margin, the legend under the grid; the radius of a connection icon and of a
# road's cost badge, and how far apart two badges stand.
CW, CH, GAP, TOP, LABEL_W, LEGEND_H = 150, 112, 30, 28, 60, 26
PORT_R, BADGE_R, BADGE_STEP = 7.5, 8.5, 18.5
# The picture is drawn at one unit to a CSS pixel (on a narrow screen it scrolls sideways in its
# own box rather than shrink), so no text of it is smaller than this, readable on a phone.
SMALL_TEXT = 11
# Where on a card each edge or corner is (times half its width, half its height).
SIDE_AT = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1), "S": (0, 1),
           "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}
SIDE_TEXT = {"N": N_("north edge"), "NE": N_("north-east corner"), "E": N_("east edge"),
             "SE": N_("south-east corner"), "S": N_("south edge"),
             "SW": N_("south-west corner"), "W": N_("west edge"), "NW": N_("north-west corner")}
ICON_TEXT = {"sun": N_("sun"), "llama": N_("llama"), "condor": N_("condor"),
             "road": N_("road to Cusco")}
# White numbers on these fills have a contrast of at least 4.5:1.
ICON_FILL = {"sun": "#8a5a00", "llama": "#6b3f1f", "condor": "#1f4e79", "road": "#4a4a4a"}
INK, MUTED = "#1d1b16", "#5d574b"


def _e(value) -> str:
    return escape(str(value), quote=True)


def tr(text) -> str:
    """An engine term or phrase (a card name, a region, a good, a card's text, a log line) in
    the page's or mail's language; outside an app context, English."""
    from flask import has_app_context

    if not text:
        return "" if text is None else str(text)
    if has_app_context():
        from flask_babel import get_translations

        from service.view.i18n import said, shown

        found = get_translations()
        return said(shown(text), found.gettext, found.ngettext)
    return render(text)


def tokens_text(n: int) -> str:
    """"1 token", "3 tokens": a road's cost, in the reader's language."""
    return ngettext("%(n)s token", "%(n)s tokens", n)


def card_name(card_id: str) -> str:
    """A card's name in the reader's language (ids are never translated)."""
    return tr(card(card_id).get("name") or card_id)


def card(card_id: str) -> dict:
    """The public face of a card id (engine card tables), or a stub for an unknown id."""
    try:
        from engine.games.inca_empire import data as tables
    except ImportError:                                   # pragma: no cover
        return {"id": card_id, "name": card_id, "type": "?"}
    if card_id == tables.CUSCO["id"]:
        return tables.CUSCO
    for group in ("START_CARDS", "ERA_CARDS", "GOALS", "RETIRED_GOALS"):
        for c in getattr(tables, group, ()):
            if c["id"] == card_id:
                return c
    found = getattr(tables, "CARDS", {})
    return found.get(card_id, {"id": card_id, "name": card_id, "type": "?"}) \
        if isinstance(found, dict) else {"id": card_id, "name": card_id, "type": "?"}


def card_text(card_id: str) -> str:
    """One line saying what a card in a hand is and does, in the reader's language."""
    c = card(card_id)
    kind = c.get("type")
    region = tr(c.get("region", ""))
    if kind in ("city", "start"):
        if c.get("temple"):
            return _("%(region)s city, fame %(fame)s, temple %(temple)s", region=region,
                     fame=c.get("fame", 0), temple=c["temple"])
        return _("%(region)s city, fame %(fame)s", region=region, fame=c.get("fame", 0))
    if kind == "colca":
        huts = _(", ").join(tr(g) for g in c.get("huts", ()))
        return _("%(region)s Colca, fame %(fame)s, huts %(huts)s", region=region,
                 fame=c.get("fame", 0), huts=huts)
    if kind == "trade":
        return tr((c.get("effect") or {}).get("text") or N_("Trade Agreement"))
    if kind == "workforce":
        return tr((c.get("action") or {}).get("text") or N_("Extra Workforce"))
    if "text" in c:
        return ngettext("%(goal)s (%(n)s point)", "%(goal)s (%(n)s points)", c.get("points", 0),
                        goal=tr(c["text"]))
    return str(kind)


def goal_text(goal_id: str) -> str:
    """A Goal card's condition in the reader's language."""
    return tr(card(goal_id).get("text") or goal_id)


def type_text(kind) -> str:
    return tr(TYPE_TEXT.get(kind, kind or ""))


def temple_owner(temple):
    """The view gives a built temple as ``{"owner": seat, "tokens": n}`` (or a bare seat)."""
    if isinstance(temple, dict):
        return temple.get("owner")
    return temple


def player_name(view: dict, seat) -> str:
    for p in view.get("players") or []:
        if p.get("seat") == seat:
            return p.get("name", _("Seat %(n)s", n=seat))
    return _("Seat %(n)s", n=seat)


def _bounds(view: dict):
    table = view.get("table") or []
    rows = [t["row"] for t in table] or [0]
    cols = [t["column"] for t in table] or [0]
    return min(rows), max(rows), max(2, max(cols))


def _centre(col: int, row: int, top_row: int) -> tuple[float, float]:
    return LABEL_W + col * CW + CW / 2, TOP + (row - top_row) * CH + CH / 2


def _token(x, y, seat, text, title, r=8.0, kind="") -> str:
    c = seat_colour(seat)
    cls = f' class="{kind}"' if kind else ""
    return (f'<g{cls}><title>{_e(title)}</title><circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" '
            f'fill="{c["fill"]}" stroke="#ffffff" stroke-width="1.5"/>'
            f'<text x="{x:.1f}" y="{y + 3.8:.1f}" text-anchor="middle" font-size="{SMALL_TEXT}" '
            f'font-weight="700" fill="{c["ink"]}">{_e(text)}</text></g>')


def _icon_shape(icon: str, x: float, y: float, r: float) -> str:
    """The shape and colour that stand for a connection icon (circle, square, diamond)."""
    fill = ICON_FILL.get(icon, ICON_FILL["road"])
    if icon == "llama":
        return (f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
                f'rx="1.5" fill="{fill}" stroke="#ffffff" stroke-width="1"/>')
    if icon == "condor":
        d = r * 1.3
        return (f'<polygon points="{x:.1f},{y - d:.1f} {x + d:.1f},{y:.1f} {x:.1f},{y + d:.1f} '
                f'{x - d:.1f},{y:.1f}" fill="{fill}" stroke="#ffffff" stroke-width="1"/>')
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="#ffffff" '
            f'stroke-width="1"/>')


def _ports_svg(card_id: str, cx: float, cy: float) -> str:
    """The card's connection icons on its edges and corners, each with its road number, as
    the printed cards show them: a road joins matching icons and costs the two numbers."""
    hw, hh = (CW - GAP) / 2, (CH - GAP) / 2
    out = []
    for side, (icon, number) in sorted((card(card_id).get("ports") or {}).items()):
        dx, dy = SIDE_AT[side]
        x, y = cx + dx * hw, cy + dy * hh
        title = _("%(side)s: %(icon)s, road number %(n)s", side=tr(SIDE_TEXT[side]),
                  icon=tr(ICON_TEXT.get(icon, icon)), n=number)
        out.append(f'<g class="ie-port" data-side="{side}" data-icon="{_e(icon)}">'
                   f'<title>{_e(title)}</title>{_icon_shape(icon, x, y, PORT_R)}'
                   f'<text x="{x:.1f}" y="{y + 3.9:.1f}" text-anchor="middle" font-size="{SMALL_TEXT}" '
                   f'font-weight="700" fill="#ffffff">{_e(number)}</text></g>')
    return "".join(out)


def _card_svg(view: dict, t: dict, cx: float, cy: float) -> str:
    w, h = CW - GAP, CH - GAP
    x, y = cx - w / 2, cy - h / 2
    fill = REGION_FILL.get(t.get("region"), "#ffffff")
    owner = t.get("owner")
    stroke = seat_colour(owner)["fill"] if owner is not None else "#8d7a4f"
    width = 3.5 if owner is not None else 1.5
    kind = type_text(t.get("type"))
    name = tr(t["name"])
    details = [_("%(name)s (%(kind)s, %(region)s)", name=name, kind=kind,
                 region=tr(t.get("region")))]
    if owner is not None:
        details.append(ngettext("claimed by %(name)s with %(n)s Fame token",
                                "claimed by %(name)s with %(n)s Fame tokens",
                                t.get("fame_tokens", 0), name=player_name(view, owner)))
    if t.get("temple_cost"):
        built = temple_owner(t.get("temple"))
        details.append(_("temple built by %(name)s", name=player_name(view, built))
                       if built is not None else
                       ngettext("temple site (%(n)s token)", "temple site (%(n)s tokens)",
                                t["temple_cost"]))
    if t.get("restricted"):
        details.append(_("route restricted"))
    restricted = " · " + _("restricted") if t.get("restricted") else ""
    out = [f'<g class="ie-card" data-card="{_e(t["card"])}"><title>{_e(separator("clause").join(details))}</title>',
           f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" rx="8" fill="{fill}" '
           f'stroke="{stroke}" stroke-width="{width}"/>',
           f'<text x="{cx:.1f}" y="{y + 20:.1f}" text-anchor="middle" font-size="11.5" '
           f'font-weight="700" fill="{INK}">{_e(name[:18])}</text>',
           f'<text x="{cx:.1f}" y="{y + 34:.1f}" text-anchor="middle" font-size="{SMALL_TEXT}" '
           f'fill="{MUTED}">{_e(kind)}{_e(restricted)}</text>']
    if owner is not None:
        out.append(_token(x + 13, y + h - 13, owner, str(t.get("fame_tokens", 0)),
                          ngettext("%(name)s: %(n)s Fame token", "%(name)s: %(n)s Fame tokens",
                                   t.get("fame_tokens", 0), name=player_name(view, owner))))
    if t.get("temple_cost"):
        built = temple_owner(t.get("temple"))
        tf = seat_colour(built)["fill"] if built is not None else "#ffffff"
        title = details[-1] if not t.get("restricted") else _("temple")
        out.append(f'<g><title>{_e(title)}</title>'
                   f'<polygon points="{x + w - 26:.1f},{y + h - 10:.1f} {x + w - 10:.1f},{y + h - 10:.1f} '
                   f'{x + w - 18:.1f},{y + h - 26:.1f}" fill="{tf}" stroke="{INK}" '
                   f'stroke-width="1"/></g>')
    for i, hut in enumerate(t.get("huts") or []):
        hx, hy = x + 28 + i * 22, y + h - 29
        # (Texts for the catalog stay outside f-strings: pybabel does not look inside them.)
        if hut.get("tokens"):
            title = _("storage hut: %(good)s, stocked by %(names)s", good=tr(hut.get("good")),
                      names=separator("list").join(player_name(view, s) for s in hut["tokens"]))
        else:
            title = _("storage hut: %(good)s, empty", good=tr(hut.get("good")))
        out.append(f'<g><title>{_e(title)}'
                   f'</title><rect x="{hx:.1f}" y="{hy:.1f}" width="19" height="19" rx="3" '
                   f'fill="#ffffff" stroke="#8d7a4f"/>'
                   f'<g transform="translate({hx + 9.5:.1f} {hy + 9.5:.1f})">'
                   f'{GOOD_SYMBOL.get(hut.get("good"), "")}</g></g>')
        for j, seat in enumerate(hut.get("tokens") or []):
            c = seat_colour(seat)
            out.append(f'<circle cx="{hx + 16 - j * 6:.1f}" cy="{hy + 2:.1f}" r="4.5" '
                       f'fill="{c["fill"]}" stroke="#ffffff"/>')
    out.append(_ports_svg(t["card"], cx, cy))
    out.append("</g>")
    return "".join(out)


def _in_gap(value: float, start: float, pitch: float) -> bool:
    """Is ``value`` in the gap between two cards of a grid of ``pitch`` starting at ``start``?"""
    offset = (value - start) % pitch
    return offset <= GAP / 2 or offset >= pitch - GAP / 2


def _badge_candidates(x1, y1, x2, y2):
    """Where a road's cost may stand, best first: in a gap between cards that the road
    crosses (its middle, else a quarter of the way), then beside it along that gap, so that
    roads joining the same two cards each get a badge of their own."""
    anchors = []
    for t in (0.5, 0.25, 0.75):
        px, py = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        row_gap, col_gap = _in_gap(py, TOP, CH), _in_gap(px, LABEL_W, CW)
        if row_gap or col_gap:
            anchors.append((px, py, (1, 0) if row_gap else (0, 1)))
    if not anchors:
        anchors.append(((x1 + x2) / 2, (y1 + y2) / 2, (1, 0)))
    for px, py, (ux, uy) in anchors:
        for k in (0, 1, -1, 2, -2, 3, -3, 4, -4):
            yield px + ux * k * BADGE_STEP, py + uy * k * BADGE_STEP


def _roads_placed(view: dict, top_row: int) -> list:
    """Each road with the point where its cost badge stands; no two badges overlap."""
    taken: list[tuple[float, float]] = []
    out = []
    for road in view.get("roads") or []:
        (ac, ar), (bc, br) = road["a"], road["b"]
        x1, y1 = _centre(ac, ar, top_row)
        x2, y2 = _centre(bc, br, top_row)
        spot = None
        for px, py in _badge_candidates(x1, y1, x2, y2):
            if all((px - qx) ** 2 + (py - qy) ** 2 >= BADGE_STEP ** 2 for qx, qy in taken):
                spot = (px, py)
                break
        if spot is None:  # a crowded gap: beside the last badge placed
            qx, qy = taken[-1]
            spot = (qx + BADGE_STEP, qy)
        taken.append(spot)
        out.append((road, (x1, y1), spot, (x2, y2)))
    return out


def _road_title(view: dict, road: dict) -> str:
    return ngettext("road of %(name)s, %(n)s token", "road of %(name)s, %(n)s tokens",
                    road.get("cost"), name=player_name(view, road.get("owner")))


def _row_label(row: int, y: float) -> str:
    """A row's name in the left margin, in the words the buttons use ("1 south")."""
    from engine.games.inca_empire.actions import row_words

    text = tr(row_words(row))
    lines = [text]
    if len(text) > 8 and " " in text:
        cut = text.rfind(" ", 0, len(text) // 2 + 2)
        cut = cut if cut > 0 else text.find(" ")
        lines = [text[:cut], text[cut + 1:]]
    first = y + 3.5 - (len(lines) - 1) * 6
    spans = "".join(f'<tspan x="{LABEL_W - 5}" y="{first + i * 12:.1f}">{_e(line)}</tspan>'
                    for i, line in enumerate(lines))
    return (f'<text class="ie-row-label" data-row="{row}" text-anchor="end" font-size="{SMALL_TEXT}" '
            f'fill="{MUTED}">{spans}</text>')


def _column_label(col: int) -> str:
    """A column's title in the words the buttons use ("mountain column")."""
    from engine.games.inca_empire.actions import column_words

    text = tr(phrase("{region} column", region=column_words(col)))
    return (f'<text class="ie-column-label" data-column="{col}" x="{LABEL_W + col * CW + CW / 2}" '
            f'y="19" text-anchor="middle" font-size="{SMALL_TEXT}" font-weight="700" '
            f'fill="{MUTED}">{_e(text[:1].upper() + text[1:])}</text>')


def _legend(y: float, width: float) -> str:
    """What the connection icons' shapes mean, under the grid."""
    out = ['<g class="ie-legend">']
    x = LABEL_W
    for icon in ("sun", "llama", "condor"):
        name = tr(ICON_TEXT[icon])
        out.append(_icon_shape(icon, x + 6, y, PORT_R - 1)
                   + f'<text x="{x + 16}" y="{y + 3.5:.1f}" font-size="{SMALL_TEXT}" fill="{INK}">'
                   f'{_e(name)}</text>')
        x += 28 + 7 * len(name)
    out.append("</g>")
    return "".join(out)


def svg(view: dict) -> Markup:
    top_row, bottom_row, last_col = _bounds(view)
    cols = last_col + 1
    width = LABEL_W + cols * CW
    grid_bottom = TOP + (bottom_row - top_row + 1) * CH
    height = grid_bottom + LEGEND_H
    names = separator("list").join(tr(_located(t)) for t in view.get("table") or [])
    title = _("The table: %(locations)s around Cusco, %(roads)s",
              locations=ngettext("%(n)s location", "%(n)s locations", len(view.get("table") or [])),
              roads=ngettext("%(n)s road", "%(n)s roads", len(view.get("roads") or [])))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="ie-board" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" '
           f'role="img" aria-labelledby="ie-svg-title ie-svg-desc" '
           f'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif">',
           f'<title id="ie-svg-title">{_e(title)}</title>',
           f'<desc id="ie-svg-desc">{_e(names)}</desc>']
    for c in range(cols):
        out.append(f'<rect x="{LABEL_W + c * CW}" y="0" width="{CW}" height="{grid_bottom}" '
                   f'fill="{REGION_BAND[min(c, 3)]}"/>' + _column_label(c))
    for r in range(top_row, bottom_row + 1):
        out.append(_row_label(r, _centre(0, r, top_row)[1]))
    placed = _roads_placed(view, top_row)
    for road, (x1, y1), (bx, by), (x2, y2) in placed:
        c = seat_colour(road.get("owner"))
        out.append(f'<g class="ie-road"><title>{_e(_road_title(view, road))}</title>'
                   f'<polyline points="{x1:.1f},{y1:.1f} {bx:.1f},{by:.1f} {x2:.1f},{y2:.1f}" '
                   f'fill="none" stroke="{c["fill"]}" stroke-width="5" stroke-linejoin="round" '
                   f'stroke-linecap="round"/></g>')
    for t in view.get("table") or []:
        out.append(_card_svg(view, t, *_centre(t["column"], t["row"], top_row)))
    # Road costs on top, each in a gap between cards, where its road runs.
    for road, _a, (bx, by), _b in placed:
        out.append(_token(bx, by, road.get("owner"), str(road.get("cost", "")),
                          _road_title(view, road), r=BADGE_R, kind="ie-road-cost"))
    out.append(_legend(grid_bottom + LEGEND_H / 2, width))
    out.append("</svg>")
    return Markup("".join(out))


def _located(t: dict) -> dict:
    """A card on the table and its place, in the words of the buttons."""
    from engine.games.inca_empire.actions import column_words, row_words

    return phrase("{card} ({region} column, {rows})", card=term(t["name"]),
                  region=column_words(t["column"]), rows=row_words(t["row"]))


def card_face(card_id: str) -> Markup:
    """A card of a hand as a small picture: its region's colour, name, huts, temple and the
    connection icons with their road numbers (what a build will cost depends on them)."""
    c = card(card_id)
    if not c.get("ports"):
        return Markup("")
    w, h = CW - GAP + 2 * PORT_R + 4, CH - GAP + 2 * PORT_R + 4
    face = {"card": card_id, "name": c.get("name", card_id), "type": c.get("type"),
            "region": c.get("region"), "owner": None, "temple_cost": c.get("temple", 0),
            "huts": [{"good": g, "tokens": []} for g in c.get("huts", ())]}
    title = _("%(name)s: its connection icons and road numbers", name=card_name(card_id))
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" class="ie-face" viewBox="0 0 {w} {h}" '
                  f'width="{w}" height="{h}" role="img" aria-label="{_e(title)}" '
                  f'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif">'
                  f'{_card_svg({}, face, w / 2, h / 2)}</svg>')


def group_actions(view: dict, actions: list) -> list[dict]:
    groups = []
    taken = set()
    for key, title, hint in ACTION_GROUPS:
        links = [a for a in actions if a.action.get("type") == key]
        if links:
            groups.append({"key": key, "title": title, "hint": hint, "links": links})
            taken.update(id(a) for a in links)
    finish = [a for a in actions if id(a) not in taken and a.action.get("type") in FINISH]
    other = [a for a in actions if id(a) not in taken and a.action.get("type") not in FINISH]
    if other:
        groups.append({"key": "other", "title": N_("Other choices"), "hint": "", "links": other})
    if finish:
        groups.append({"key": "finish", "title": N_("Or finish"), "hint": "", "links": finish})
    return groups


def mail_html(view: dict) -> Markup:
    """The grid of the table as an HTML table (no SVG: mail clients drop it)."""
    top_row, bottom_row, last_col = _bounds(view)
    at = {(t["column"], t["row"]): t for t in view.get("table") or []}
    head = "".join(f'<th style="padding:3px;font-size:12px;color:{MUTED};background:'
                   f'{REGION_BAND[min(c, 3)]};">{_e(tr(REGIONS[min(c, 3)]))}</th>'
                   for c in range(last_col + 1))
    rows = []
    for r in range(top_row, bottom_row + 1):
        cells = []
        for c in range(last_col + 1):
            t = at.get((c, r))
            if t is None:
                cells.append(f'<td style="padding:3px;background:{REGION_BAND[min(c, 3)]};"></td>')
                continue
            owner = t.get("owner")
            border = seat_colour(owner)["fill"] if owner is not None else "#8d7a4f"
            bits = [f'<strong>{_e(tr(t["name"]))}</strong>',
                    f'<span style="color:{MUTED};font-size:11px;">'
                    f'{_e(type_text(t.get("type")))}</span>']
            if owner is not None:
                cc = seat_colour(owner)
                bits.append(f'<span style="display:inline-block;padding:0 5px;border-radius:9px;'
                            f'background:{cc["fill"]};color:{cc["ink"]};font-weight:bold;">'
                            f'{_e(player_name(view, owner))} ★{t.get("fame_tokens", 0)}</span>')
            if t.get("temple_cost"):
                built = temple_owner(t.get("temple"))
                bits.append(_e(_("temple: %(name)s", name=player_name(view, built))
                               if built is not None else
                               _("temple: open (%(n)s)", n=t["temple_cost"])))
            if t.get("huts"):
                bits.append(" ".join(
                    _e(tr(h.get("good") or ""))
                    + ("(" + ",".join(_e(player_name(view, s)[:1]) for s in h["tokens"]) + ")"
                       if h.get("tokens") else "") for h in t["huts"]))
            if t.get("restricted"):
                bits.append(_e(_("restricted")))
            cells.append(f'<td style="padding:4px;border:3px solid {border};border-radius:6px;'
                         f'background:{REGION_FILL.get(t.get("region"), "#ffffff")};color:{INK};'
                         f'font-size:12px;vertical-align:top;width:33%;">{"<br>".join(bits)}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    grid = (f'<table role="presentation" cellpadding="0" cellspacing="4" style="border-collapse:'
            f'separate;width:100%;margin:0 0 8px 0;"><tr>{head}</tr>{"".join(rows)}</table>')
    names = {(t["column"], t["row"]): tr(t["name"]) for t in view.get("table") or []}
    roads = "".join(
        f'<li>{_e(names.get(tuple(r["a"]), r["a"]))} – {_e(names.get(tuple(r["b"]), r["b"]))}: '
        f'{_e(player_name(view, r.get("owner")))}, {_e(tokens_text(r.get("cost")))}</li>'
        for r in view.get("roads") or [])
    if roads:
        heading = _("Roads")
        grid += (f'<p style="margin:4px 0;color:{INK};"><strong>{_e(heading)}</strong></p>'
                 f'<ul style="margin:0 0 8px 0;padding-left:18px;color:{INK};font-size:13px;">'
                 f'{roads}</ul>')
    return Markup(grid)
