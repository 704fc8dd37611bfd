"""Every table of The Princes of Machu Picchu, in one place.

Why one module: the printed board data is not public, so several values are *reconstructed*
(marked ``RECONSTRUCTED`` below, fixed by ``machu_picchu.decisions.md``).  Keeping them here,
never in code branches, lets a table be corrected from a physical copy without touching the
rules code.  Sources: zh.full = machu_picchu.zh.full.txt, en = machu_picchu.en.night_end_setup.txt,
dec = machu_picchu.decisions.md.
"""
from __future__ import annotations

from itertools import combinations

from engine.text import N_

# --- goods -------------------------------------------------------------------------------
GOODS = ("corn", "llama", "coca", "pottery", "cloth")          # corn is the money
MARKET_GOODS = ("llama", "coca", "pottery", "cloth")           # dec: Market, corn not on it
# zh.full 游戏配件: 38 llamas, 28 coca/pottery/cloth, 33 big corn (x3) + 31 small corn.
COMPONENTS = {"corn": 33 * 3 + 31, "llama": 38, "coca": 28, "pottery": 28, "cloth": 28}
CORN_PER_GOOD = 3            # 3 corn count as one good (sacrifice, Sun Clock, tie-break)

# --- districts (dec: Districts) ------------------------------------------------------------
PRODUCTION = {               # district -> the good it produces (zh.full 生产区)
    "corn_terraces": "corn",
    "llama_meadow": "llama",
    "coca_plantation": "coca",
    "potters_quarter": "pottery",
    "weavers_quarter": "cloth",
}
# corn units per bonus unit / per producing Inca at the terraces (zh.full 玉米田: 3 corn)
CORN_TERRACE_UNIT = 3
TEMPLES = ("sun_temple", "puma_temple", "condor_temple", "main_temple")
TEMPLE_CARD = {"sun_temple": "sun", "puma_temple": "puma", "condor_temple": "condor"}
DISTRICTS = (
    "corn_terraces", "llama_meadow", "coca_plantation", "potters_quarter", "weavers_quarter",
    "sun_temple", "puma_temple", "condor_temple", "main_temple",
    "watchmans_hut", "royal_palace", "house_of_priests", "house_of_virgins",
    "central_plaza", "sun_clock",
)
# English names are the catalog's msgids (``N_``): shown through ``engine.text.term``.
DISTRICT_NAMES = {
    "corn_terraces": N_("Corn Terraces"), "llama_meadow": N_("Llama's Meadow"),
    "coca_plantation": N_("Coca Plantation"), "potters_quarter": N_("Potter's Quarter"),
    "weavers_quarter": N_("Weaver's Quarter"), "sun_temple": N_("Sun Temple"),
    "puma_temple": N_("Puma Temple"), "condor_temple": N_("Condor Temple"),
    "main_temple": N_("Main Temple"), "watchmans_hut": N_("Watchman's Hut"),
    "royal_palace": N_("Royal Palace"), "house_of_priests": N_("House of Priests"),
    "house_of_virgins": N_("House of Virgins"), "central_plaza": N_("Central Plaza"),
    "sun_clock": N_("Sun Clock"),
}
# RECONSTRUCTED (dec: adjacency table), undirected.
_EDGES = {
    "central_plaza": ("main_temple", "puma_temple", "sun_clock", "house_of_priests",
                      "house_of_virgins", "royal_palace", "watchmans_hut"),
    "sun_clock": ("central_plaza", "main_temple", "sun_temple", "condor_temple"),
    "main_temple": ("central_plaza", "sun_clock", "sun_temple", "condor_temple"),
    "sun_temple": ("sun_clock", "main_temple", "puma_temple"),
    "puma_temple": ("central_plaza", "sun_temple", "llama_meadow"),
    "condor_temple": ("sun_clock", "main_temple", "weavers_quarter"),
    "house_of_priests": ("central_plaza", "house_of_virgins", "royal_palace"),
    "house_of_virgins": ("central_plaza", "house_of_priests", "watchmans_hut"),
    "royal_palace": ("central_plaza", "house_of_priests", "coca_plantation",
                     "potters_quarter", "weavers_quarter"),
    "watchmans_hut": ("central_plaza", "house_of_virgins", "corn_terraces", "llama_meadow"),
    "corn_terraces": ("watchmans_hut", "llama_meadow", "coca_plantation"),
    "llama_meadow": ("watchmans_hut", "corn_terraces", "puma_temple"),
    "coca_plantation": ("royal_palace", "corn_terraces", "potters_quarter"),
    "potters_quarter": ("royal_palace", "coca_plantation", "weavers_quarter"),
    "weavers_quarter": ("royal_palace", "potters_quarter", "condor_temple"),
}
ADJACENT = {d: frozenset(n) for d, n in _EDGES.items()}
MOVE_ANYWHERE_COST = {"llama": 1}          # dec: Moving the Prince

# Where Incas are placed and what they cost (zh.districts_night 守夜人小屋 / 王宫).
PLACEMENT = {
    "watchmans_hut": {
        "corn_terraces": {"llama": 1, "pottery": 1},
        "llama_meadow": {"corn": 3, "coca": 1},
    },
    "royal_palace": {
        "coca_plantation": {"pottery": 1, "cloth": 1},
        "potters_quarter": {"coca": 1, "cloth": 1},
        "weavers_quarter": {"coca": 1, "pottery": 1},
    },
}

# --- priests and virgins (dec: Priests and Virgins; steps RECONSTRUCTED) --------------------
PRIEST_KINDS = ("condor", "puma", "sun")
PRIESTS = {
    "condor": {"name": N_("Priest of the Condor"), "count": 4,
               "cost": {"cloth": 1, "coca": 1, "pottery": 1}, "steps": (4, 3, 3, 2)},
    "puma": {"name": N_("Priest of the Puma"), "count": 5,
             "cost": {"cloth": 2, "coca": 1, "pottery": 1}, "steps": (5, 4, 4, 3, 3)},
    "sun": {"name": N_("Virgin of the Sun"), "count": 6,
            "cost": {"cloth": 3, "coca": 1, "pottery": 1}, "steps": (6, 5, 5, 4, 4, 3)},
}
HOUSE_OFFERS = {"house_of_priests": ("condor", "puma"), "house_of_virgins": ("sun",)}
TOTAL_PRIESTS = sum(p["count"] for p in PRIESTS.values())      # 15: the rescue end

# --- temples -----------------------------------------------------------------------------
STEPS_PER_STONE = 3                        # zh.full 神庙: 3 steps per temple stone
MAIN_TEMPLE_KINDS = ("llama", "coca", "pottery", "cloth", "corn")   # corn = 3 corn
MAIN_TEMPLE_STEPS = 2                      # per different kind, at most 10
BONUS_CAP = 2                              # en: at most two bonus units per district
TEMPLE_STONES = 8                          # zh.full 配件 (never short: 4 temples x cap 2)

# --- moon tiles (RECONSTRUCTED, dec: Moon Tiles) -------------------------------------------
MOON_TILES = {
    "corn3": {"corn": 3},
    "steps2": {"steps": 2},
    "steps3": {"steps": 3},
    "llama": {"good": "llama", "price": 1},
    "coca": {"good": "coca", "price": 1},
    "pottery": {"good": "pottery", "price": 1},
    "cloth": {"good": "cloth", "price": 1},
}
MOON_TILE_ORDER = tuple(MOON_TILES)
# A tile as the labels and the log name it: its id, kept as the msgid since rules version 1
# (the English label recorded with a move renders it as it is); every catalog, English's too
# (translations/en), says what it gives ("corn3" -> "3 corn" in the reader's language).
MOON_TILE_NAMES = {"corn3": N_("corn3"), "steps2": N_("steps2"), "steps3": N_("steps3"),
                   "llama": N_("llama"), "coca": N_("coca"), "pottery": N_("pottery"),
                   "cloth": N_("cloth")}
MOON_TILES_PER_DAY = 3                     # the 3rd tile taken ends the day

# --- market (RECONSTRUCTED, dec: Market) ---------------------------------------------------
MARKET_PRICES = (6, 5, 4, 3)               # field prices, top to bottom
MARKET_START_FILLED = 2                    # the 6 and 5 fields hold a good at setup
BANK_BUY_PRICE = 6                         # empty column: buy from the bank
BANK_SELL_PRICE = 3                        # full column: sell to the bank

# --- Incatrail (zh.full 印加之路) ------------------------------------------------------------
SUMMIT = 20
TRAIL_PAYOUTS = ((7, {"corn": 3}), (13, {"llama": 1}))   # paid at the end of the turn
SUMMIT_DRAW = 3
SUMMIT_KEEP = 1                            # draw 3, return 2 (2 left: return 1; 1 left: take)
SUN_CLOCK_STEPS = 3
SUN_CLOCK_KINDS = 3                        # 3 different goods per returning Inca
OWED_CARD_VP = 3                           # deck exhausted: 3 VP per card still owed


def trail_bonus(scout: int) -> int:
    """VP (and, in a conquest, gold) for the scout's field (zh.full 计分 / 黄金)."""
    if 13 <= scout <= 19:
        return 2
    if 7 <= scout <= 12:
        return 1
    return 0


# --- sacrifice cards (dec: Incatrail and Sacrifice Cards; gold RECONSTRUCTED) ---------------
ICONS = ("corn", "llama", "coca", "pottery", "cloth", "condor", "puma", "sun")
# The goods and the card icons as terms (msgids): a good's English name is its id.
ICON_NAMES = {"corn": N_("corn"), "llama": N_("llama"), "coca": N_("coca"),
              "pottery": N_("pottery"), "cloth": N_("cloth"), "condor": N_("condor"),
              "puma": N_("puma"), "sun": N_("sun")}
CORN_KIND = N_("3 corn")                   # corn as one "different good" (Main Temple, Sun Clock)
ICON_DISTRICT = {g: d for d, g in PRODUCTION.items()}           # production icon -> district
_GOLD_WITH_PRODUCTION = {"condor": 3, "puma": 2, "sun": 1}
_GOLD_TEMPLE_PAIRS = {frozenset(("condor", "puma")): 2, frozenset(("condor", "sun")): 1,
                      frozenset(("puma", "sun")): 1}


def _gold(a: str, b: str) -> int:
    pa, pb = a in PRODUCTION.values(), b in PRODUCTION.values()
    if pa and pb:
        return 3
    if pa or pb:
        return _GOLD_WITH_PRODUCTION[b if pa else a]
    return _GOLD_TEMPLE_PAIRS[frozenset((a, b))]


CARDS = tuple({"id": i, "icons": (a, b), "gold": _gold(a, b)}
              for i, (a, b) in enumerate(combinations(ICONS, 2)))
assert len(CARDS) == 28 and sum(c["gold"] for c in CARDS) == 64

# --- setup by player count ------------------------------------------------------------------
INCAS_PER_PLAYER = {2: 12, 3: 10, 4: 9, 5: 8}             # en: Players' Equipment
INCAS_PER_COLOUR = 12
START_DAY = {2: 1, 3: 2, 4: 3, 5: 3}                      # en: time marker
LAST_DAY = 9
START_GOODS = {"corn": 3, "llama": 1, "coca": 1, "pottery": 1, "cloth": 1}
START_CARDS = 1
TRACK_CORN_PER_DAY = 1                                    # dec: one corn per day start..9

# Standing orders (design, docs: Standing orders): each seat's answers given in advance.
ORDER_CHOICES = {
    "produce": ("ask", "always", "never"),
    "temple_sacrifice": ("ask", "all", "none"),
    "main_temple": ("ask", "all", "goods_only", "none"),
}
DEFAULT_ORDERS = {"produce": "ask", "temple_sacrifice": "ask", "main_temple": "ask"}
