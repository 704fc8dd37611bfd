"""The project's own Inca Empire card set (the printed card contents are not public).

Designed by the Chasqui project to follow every rule in the rulebook text (see
docs/games/inca_empire.md, which lists every card).  Replace this one module to play with the
printed cards: the engine reads nothing but these tables.

Geometry: the table is a grid; ``column`` 0 = coastal, 1 = plateau, 2 = mountain (3 = the
Machu Picchu column); ``row`` grows to the south, so "north" is ``row - 1``.  Cusco sits at
column 1, row 0.  ``ports`` maps an edge (N/E/S/W) or corner (NE/SE/SW/NW) to
``[icon, road number]``: two cards connect where the facing edges/corners carry the same icon,
and the road costs the sum of the two numbers.  Cities use their corners for other cities and
their edges for Colcas; Colcas use their edges for cities and (Wild Colcas only, or a regular
Colca met by a Wild one) their corners for other Colcas.  ``fame`` is the fame box, ``temple``
the number of tokens the gold (temple) square takes (0 = no temple), ``huts`` the goods of the
storage huts.  Workforce ``action`` and Trade Agreement ``effect`` are data the engine
interprets (``kind`` + parameters; ``text`` is what the card says).
"""
from __future__ import annotations

from engine.text import N_

# Regions and goods are keys of the rules and also words the players read: ``N_`` puts them in
# the catalog (translations/inca_empire.cfg) and labels show them as ``engine.text.term``.
REGIONS = [N_("coastal"), N_("plateau"), N_("mountain")]
WILD = N_("wild")  # a Wild Colca's region: it counts as the region of its column
ICONS = ["sun", "llama", "condor"]
GOODS = [N_("fish"), N_("corn"), N_("potatoes")]
TOKENS_PER_PLAYER = 70
ROUTE_RESTRICTION_TOKENS = 5
MACHU_PICCHU = "S-MACHU-PICCHU"

CUSCO = {"id": "CUSCO", "type": "cusco", "era": 0, "region": "plateau", "name": N_("Cusco"), "fame": 0, "temple": 0, "huts": [], "spot": [1, 0], "ports": {"W": ["sun", 1], "N": ["llama", 1], "S": ["sun", 1], "E": ["condor", 1], "NE": ["llama", 1], "SE": ["condor", 1], "SW": ["sun", 3], "NW": ["sun", 2]}}

START_CARDS = [
    {"id": "S-NAZCA", "type": "start", "era": 0, "region": "coastal", "name": N_("Nazca"), "fame": 1, "temple": 0, "huts": [], "spot": [0, 0], "ports": {"E": ["sun", 1], "N": ["llama", 1], "S": ["condor", 2], "W": ["condor", 1], "NE": ["llama", 1], "SE": ["condor", 1], "SW": ["llama", 1], "NW": ["condor", 1]}},
    {"id": "S-CAJAMARCA", "type": "start", "era": 0, "region": "plateau", "name": N_("Cajamarca"), "fame": 1, "temple": 2, "huts": [], "spot": [1, -1], "ports": {"S": ["llama", 1], "N": ["condor", 2], "E": ["condor", 3], "W": ["llama", 2], "NE": ["sun", 2], "SE": ["condor", 1], "SW": ["condor", 2], "NW": ["condor", 1]}},
    {"id": "S-TIWANAKU", "type": "start", "era": 0, "region": "plateau", "name": N_("Tiwanaku"), "fame": 1, "temple": 0, "huts": [], "spot": [1, 1], "ports": {"N": ["sun", 1], "S": ["llama", 1], "E": ["condor", 3], "W": ["condor", 3], "NE": ["sun", 1], "SE": ["condor", 2], "SW": ["condor", 1], "NW": ["condor", 3]}},
    {"id": "S-VILCABAMBA", "type": "start", "era": 0, "region": "mountain", "name": N_("Vilcabamba"), "fame": 1, "temple": 0, "huts": [], "spot": [2, 0], "ports": {"W": ["condor", 1], "N": ["llama", 1], "S": ["sun", 1], "E": ["condor", 1], "NE": ["sun", 1], "SE": ["sun", 1], "SW": ["sun", 2], "NW": ["sun", 2]}},
    {"id": "S-MACHU-PICCHU", "type": "start", "era": 0, "region": "mountain", "name": N_("Machu Picchu"), "fame": 3, "temple": 2, "huts": [], "spot": [3, 0], "ports": {"SW": ["road", 1]}, "five_players_only": True},
]

ERA_CARDS = [
    {"id": "E1-01", "type": "trade", "era": 1, "name": N_("Trade Agreement"), "effect": {"kind": "road_discount", "n": 1, "text": N_("Each road costs 1 token less (never less than 1).")}},
    {"id": "E1-02", "type": "trade", "era": 1, "name": N_("Trade Agreement"), "effect": {"kind": "shared_roads", "text": N_("Each of you may use the other's roads as part of your own road system.")}},
    {"id": "E1-03", "type": "trade", "era": 1, "name": N_("Trade Agreement"), "effect": {"kind": "terrace_bonus", "n": 1, "text": N_("When you build a Terrace, also move 1 token from your Supply to your Active Pool.")}},
    {"id": "E1-04", "type": "trade", "era": 1, "name": N_("Trade Agreement"), "effect": {"kind": "huts2", "text": N_("Storage huts may hold two tokens.")}},
    {"id": "E1-05", "type": "trade", "era": 1, "name": N_("Trade Agreement"), "effect": {"kind": "road_discount", "n": 1, "text": N_("Each road costs 1 token less (never less than 1).")}},
    {"id": "E1-06", "type": "trade", "era": 1, "name": N_("Trade Agreement"), "effect": {"kind": "shared_roads", "text": N_("Each of you may use the other's roads as part of your own road system.")}},
    {"id": "E1-07", "type": "workforce", "era": 1, "name": N_("Extra Workforce"), "action": {"kind": "activate", "n": 2, "text": N_("Move 2 tokens from your Supply to your Active Pool.")}},
    {"id": "E1-08", "type": "workforce", "era": 1, "name": N_("Extra Workforce"), "action": {"kind": "restrict", "text": N_("Place a Route Limitation token on any location.")}},
    {"id": "E1-09", "type": "workforce", "era": 1, "name": N_("Extra Workforce"), "action": {"kind": "stock", "huts": 3, "text": N_("Stock three storage huts.")}},
    {"id": "E1-10", "type": "workforce", "era": 1, "name": N_("Extra Workforce"), "action": {"kind": "draw", "n": 2, "text": N_("Draw 2 cards from the current Era deck.")}},
    {"id": "E1-11", "type": "workforce", "era": 1, "name": N_("Extra Workforce"), "action": {"kind": "temple", "text": N_("Build a temple.")}},
    {"id": "E1-12", "type": "city", "era": 1, "region": "coastal", "name": N_("Ica"), "fame": 1, "temple": 0, "huts": [], "ports": {"N": ["condor", 1], "E": ["llama", 2], "S": ["condor", 2], "W": ["sun", 2], "NE": ["condor", 1], "SE": ["sun", 2], "SW": ["llama", 1], "NW": ["sun", 1]}},
    {"id": "E1-13", "type": "city", "era": 1, "region": "plateau", "name": N_("Hatun Colla"), "fame": 1, "temple": 2, "huts": [], "ports": {"N": ["llama", 1], "E": ["llama", 3], "S": ["condor", 2], "W": ["sun", 1], "NE": ["sun", 1], "SE": ["sun", 1], "SW": ["sun", 1], "NW": ["condor", 1]}},
    {"id": "E1-14", "type": "city", "era": 1, "region": "mountain", "name": N_("Ollantaytambo"), "fame": 1, "temple": 0, "huts": [], "ports": {"N": ["llama", 2], "E": ["sun", 2], "S": ["condor", 2], "W": ["sun", 3], "NE": ["llama", 2], "SE": ["llama", 3], "SW": ["sun", 2], "NW": ["condor", 2]}},
    {"id": "E1-15", "type": "city", "era": 1, "region": "coastal", "name": N_("Casma"), "fame": 1, "temple": 0, "huts": [], "ports": {"N": ["condor", 1], "E": ["condor", 3], "S": ["sun", 2], "W": ["sun", 2], "NE": ["llama", 2], "SE": ["sun", 1], "SW": ["llama", 1], "NW": ["sun", 1]}},
    {"id": "E1-16", "type": "city", "era": 1, "region": "plateau", "name": N_("Sicuani"), "fame": 1, "temple": 3, "huts": [], "ports": {"N": ["condor", 2], "E": ["llama", 2], "S": ["condor", 2], "W": ["llama", 2], "NE": ["sun", 2], "SE": ["sun", 1], "SW": ["condor", 2], "NW": ["llama", 1]}},
    {"id": "E1-17", "type": "city", "era": 1, "region": "mountain", "name": N_("Patallacta"), "fame": 1, "temple": 0, "huts": [], "ports": {"N": ["sun", 1], "E": ["sun", 1], "S": ["condor", 1], "W": ["sun", 1], "NE": ["sun", 1], "SE": ["sun", 1], "SW": ["llama", 3], "NW": ["condor", 1]}},
    {"id": "E1-18", "type": "city", "era": 1, "region": "coastal", "name": N_("Pisco"), "fame": 1, "temple": 0, "huts": [], "ports": {"N": ["condor", 2], "E": ["sun", 2], "S": ["condor", 2], "W": ["llama", 3], "NE": ["condor", 2], "SE": ["llama", 2], "SW": ["llama", 1], "NW": ["llama", 2]}},
    {"id": "E1-19", "type": "city", "era": 1, "region": "plateau", "name": N_("Vilcas"), "fame": 1, "temple": 3, "huts": [], "ports": {"N": ["sun", 1], "E": ["condor", 3], "S": ["sun", 1], "W": ["llama", 2], "NE": ["sun", 2], "SE": ["llama", 1], "SW": ["sun", 2], "NW": ["condor", 2]}},
    {"id": "E1-20", "type": "city", "era": 1, "region": "mountain", "name": N_("Pisac"), "fame": 1, "temple": 0, "huts": [], "ports": {"N": ["llama", 2], "E": ["llama", 2], "S": ["sun", 2], "W": ["llama", 1], "NE": ["llama", 1], "SE": ["llama", 1], "SW": ["condor", 2], "NW": ["llama", 1]}},
    {"id": "E1-21", "type": "colca", "era": 1, "region": "coastal", "name": N_("Coastal Colca"), "fame": 1, "temple": 0, "huts": ["fish", "fish"], "ports": {"N": ["llama", 2], "E": ["llama", 3], "S": ["llama", 1], "W": ["sun", 1], "NE": ["condor", 1], "SE": ["llama", 1], "SW": ["condor", 1], "NW": ["llama", 2]}},
    {"id": "E1-22", "type": "colca", "era": 1, "region": "plateau", "name": N_("Plateau Colca"), "fame": 2, "temple": 0, "huts": ["corn", "potatoes"], "ports": {"N": ["condor", 2], "E": ["condor", 2], "S": ["sun", 3], "W": ["llama", 1], "NE": ["llama", 1], "SE": ["llama", 2], "SW": ["llama", 2], "NW": ["condor", 2]}},
    {"id": "E1-23", "type": "colca", "era": 1, "region": "mountain", "name": N_("Mountain Colca"), "fame": 2, "temple": 0, "huts": ["potatoes", "fish", "fish"], "ports": {"N": ["llama", 2], "E": ["llama", 2], "S": ["llama", 1], "W": ["sun", 1], "NE": ["sun", 1], "SE": ["condor", 1], "SW": ["condor", 1], "NW": ["sun", 3]}},
    {"id": "E1-24", "type": "colca", "era": 1, "region": "wild", "name": N_("Wild Colca"), "fame": 1, "temple": 0, "huts": ["corn", "corn"], "ports": {"N": ["sun", 1], "E": ["condor", 3], "S": ["sun", 2], "W": ["sun", 1], "NE": ["llama", 1], "SE": ["sun", 1], "SW": ["sun", 1], "NW": ["llama", 3]}},
    {"id": "E1-25", "type": "colca", "era": 1, "region": "coastal", "name": N_("Coastal Colca"), "fame": 2, "temple": 0, "huts": ["fish", "potatoes"], "ports": {"N": ["llama", 1], "E": ["llama", 1], "S": ["sun", 2], "W": ["llama", 1], "NE": ["condor", 1], "SE": ["sun", 1], "SW": ["sun", 1], "NW": ["condor", 2]}},
    {"id": "E1-26", "type": "colca", "era": 1, "region": "plateau", "name": N_("Plateau Colca"), "fame": 1, "temple": 0, "huts": ["corn", "fish", "potatoes"], "ports": {"N": ["sun", 1], "E": ["llama", 1], "S": ["condor", 1], "W": ["llama", 3], "NE": ["sun", 1], "SE": ["condor", 1], "SW": ["condor", 2], "NW": ["sun", 1]}},
    {"id": "E1-27", "type": "colca", "era": 1, "region": "wild", "name": N_("Wild Colca"), "fame": 1, "temple": 0, "huts": ["corn", "fish", "fish"], "ports": {"N": ["llama", 1], "E": ["llama", 1], "S": ["llama", 2], "W": ["llama", 2], "NE": ["condor", 2], "SE": ["llama", 1], "SW": ["condor", 1], "NW": ["condor", 2]}},
    {"id": "E2-01", "type": "trade", "era": 2, "name": N_("Trade Agreement"), "effect": {"kind": "shared_roads", "text": N_("Each of you may use the other's roads as part of your own road system.")}},
    {"id": "E2-02", "type": "trade", "era": 2, "name": N_("Trade Agreement"), "effect": {"kind": "terrace_bonus", "n": 1, "text": N_("When you build a Terrace, also move 1 token from your Supply to your Active Pool.")}},
    {"id": "E2-03", "type": "trade", "era": 2, "name": N_("Trade Agreement"), "effect": {"kind": "huts2", "text": N_("Storage huts may hold two tokens.")}},
    {"id": "E2-04", "type": "workforce", "era": 2, "name": N_("Extra Workforce"), "action": {"kind": "activate", "n": 2, "text": N_("Move 2 tokens from your Supply to your Active Pool.")}},
    {"id": "E2-05", "type": "workforce", "era": 2, "name": N_("Extra Workforce"), "action": {"kind": "restrict", "text": N_("Place a Route Limitation token on any location.")}},
    {"id": "E2-06", "type": "workforce", "era": 2, "name": N_("Extra Workforce"), "action": {"kind": "stock", "huts": 3, "text": N_("Stock three storage huts.")}},
    {"id": "E2-07", "type": "workforce", "era": 2, "name": N_("Extra Workforce"), "action": {"kind": "draw", "n": 2, "text": N_("Draw 2 cards from the current Era deck.")}},
    {"id": "E2-08", "type": "workforce", "era": 2, "name": N_("Extra Workforce"), "action": {"kind": "temple", "text": N_("Build a temple.")}},
    {"id": "E2-09", "type": "city", "era": 2, "region": "coastal", "name": N_("Camana"), "fame": 1, "temple": 0, "huts": [], "ports": {"N": ["condor", 1], "E": ["llama", 1], "S": ["sun", 1], "W": ["sun", 1], "NE": ["sun", 1], "SE": ["condor", 2], "SW": ["sun", 2], "NW": ["sun", 1]}},
    {"id": "E2-10", "type": "city", "era": 2, "region": "plateau", "name": N_("Pucara"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["sun", 1], "E": ["llama", 3], "S": ["sun", 2], "W": ["condor", 1], "NE": ["condor", 1], "SE": ["llama", 1], "SW": ["sun", 1], "NW": ["condor", 1]}},
    {"id": "E2-11", "type": "city", "era": 2, "region": "mountain", "name": N_("Sacsayhuaman"), "fame": 2, "temple": 2, "huts": [], "ports": {"N": ["condor", 1], "E": ["condor", 1], "S": ["condor", 1], "W": ["condor", 2], "NE": ["sun", 2], "SE": ["llama", 2], "SW": ["condor", 2], "NW": ["condor", 1]}},
    {"id": "E2-12", "type": "city", "era": 2, "region": "coastal", "name": N_("Tumbes"), "fame": 1, "temple": 0, "huts": [], "ports": {"N": ["sun", 1], "E": ["sun", 3], "S": ["sun", 2], "W": ["condor", 3], "NE": ["sun", 1], "SE": ["condor", 2], "SW": ["sun", 2], "NW": ["condor", 3]}},
    {"id": "E2-13", "type": "city", "era": 2, "region": "plateau", "name": N_("Bombon"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["llama", 1], "E": ["sun", 3], "S": ["sun", 1], "W": ["sun", 2], "NE": ["llama", 2], "SE": ["condor", 1], "SW": ["llama", 2], "NW": ["llama", 2]}},
    {"id": "E2-14", "type": "city", "era": 2, "region": "mountain", "name": N_("Paucartambo"), "fame": 2, "temple": 2, "huts": [], "ports": {"N": ["llama", 2], "E": ["llama", 1], "S": ["llama", 2], "W": ["sun", 1], "NE": ["sun", 2], "SE": ["sun", 1], "SW": ["condor", 2], "NW": ["llama", 1]}},
    {"id": "E2-15", "type": "city", "era": 2, "region": "coastal", "name": N_("Huarmey"), "fame": 1, "temple": 0, "huts": [], "ports": {"N": ["llama", 1], "E": ["condor", 2], "S": ["condor", 1], "W": ["sun", 1], "NE": ["condor", 2], "SE": ["llama", 2], "SW": ["sun", 1], "NW": ["llama", 1]}},
    {"id": "E2-16", "type": "city", "era": 2, "region": "plateau", "name": N_("Tarma"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["condor", 3], "E": ["llama", 1], "S": ["condor", 1], "W": ["sun", 1], "NE": ["llama", 2], "SE": ["condor", 1], "SW": ["condor", 1], "NW": ["llama", 1]}},
    {"id": "E2-17", "type": "city", "era": 2, "region": "mountain", "name": N_("Limatambo"), "fame": 2, "temple": 3, "huts": [], "ports": {"N": ["llama", 3], "E": ["llama", 1], "S": ["condor", 2], "W": ["sun", 3], "NE": ["condor", 1], "SE": ["condor", 2], "SW": ["sun", 3], "NW": ["condor", 1]}},
    {"id": "E2-18", "type": "city", "era": 2, "region": "coastal", "name": N_("Lima"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["sun", 1], "E": ["sun", 1], "S": ["sun", 1], "W": ["llama", 1], "NE": ["sun", 1], "SE": ["condor", 1], "SW": ["condor", 1], "NW": ["sun", 3]}},
    {"id": "E2-19", "type": "city", "era": 2, "region": "plateau", "name": N_("Chucuito"), "fame": 1, "temple": 0, "huts": [], "ports": {"N": ["llama", 1], "E": ["condor", 3], "S": ["llama", 1], "W": ["condor", 2], "NE": ["sun", 1], "SE": ["condor", 2], "SW": ["condor", 1], "NW": ["sun", 1]}},
    {"id": "E2-20", "type": "colca", "era": 2, "region": "coastal", "name": N_("Coastal Colca"), "fame": 2, "temple": 0, "huts": ["fish"], "ports": {"N": ["sun", 1], "E": ["condor", 1], "S": ["condor", 2], "W": ["llama", 1], "NE": ["condor", 2], "SE": ["sun", 1], "SW": ["sun", 2], "NW": ["llama", 1]}},
    {"id": "E2-21", "type": "colca", "era": 2, "region": "plateau", "name": N_("Plateau Colca"), "fame": 1, "temple": 0, "huts": ["fish", "corn", "fish"], "ports": {"N": ["llama", 1], "E": ["condor", 1], "S": ["condor", 1], "W": ["llama", 1], "NE": ["llama", 3], "SE": ["sun", 1], "SW": ["condor", 1], "NW": ["condor", 2]}},
    {"id": "E2-22", "type": "colca", "era": 2, "region": "mountain", "name": N_("Mountain Colca"), "fame": 2, "temple": 0, "huts": ["fish", "potatoes"], "ports": {"N": ["condor", 1], "E": ["llama", 3], "S": ["sun", 1], "W": ["sun", 2], "NE": ["condor", 2], "SE": ["condor", 2], "SW": ["llama", 2], "NW": ["sun", 2]}},
    {"id": "E2-23", "type": "colca", "era": 2, "region": "wild", "name": N_("Wild Colca"), "fame": 1, "temple": 0, "huts": ["potatoes"], "ports": {"N": ["llama", 2], "E": ["sun", 2], "S": ["llama", 2], "W": ["condor", 1], "NE": ["condor", 1], "SE": ["sun", 1], "SW": ["sun", 1], "NW": ["condor", 2]}},
    {"id": "E2-24", "type": "colca", "era": 2, "region": "coastal", "name": N_("Coastal Colca"), "fame": 2, "temple": 0, "huts": ["fish"], "ports": {"N": ["sun", 1], "E": ["condor", 2], "S": ["sun", 2], "W": ["llama", 1], "NE": ["sun", 1], "SE": ["condor", 3], "SW": ["llama", 2], "NW": ["sun", 3]}},
    {"id": "E2-25", "type": "colca", "era": 2, "region": "plateau", "name": N_("Plateau Colca"), "fame": 1, "temple": 0, "huts": ["corn"], "ports": {"N": ["condor", 1], "E": ["llama", 1], "S": ["sun", 1], "W": ["llama", 2], "NE": ["llama", 2], "SE": ["llama", 1], "SW": ["sun", 1], "NW": ["llama", 1]}},
    {"id": "E2-26", "type": "colca", "era": 2, "region": "mountain", "name": N_("Mountain Colca"), "fame": 1, "temple": 0, "huts": ["potatoes", "fish"], "ports": {"N": ["llama", 1], "E": ["llama", 1], "S": ["llama", 2], "W": ["sun", 2], "NE": ["sun", 3], "SE": ["sun", 2], "SW": ["sun", 2], "NW": ["condor", 1]}},
    {"id": "E2-27", "type": "colca", "era": 2, "region": "wild", "name": N_("Wild Colca"), "fame": 2, "temple": 0, "huts": ["fish"], "ports": {"N": ["sun", 2], "E": ["condor", 3], "S": ["llama", 1], "W": ["sun", 1], "NE": ["llama", 3], "SE": ["sun", 1], "SW": ["condor", 1], "NW": ["sun", 1]}},
    {"id": "E2-28", "type": "colca", "era": 2, "region": "coastal", "name": N_("Coastal Colca"), "fame": 1, "temple": 0, "huts": ["fish", "corn"], "ports": {"N": ["llama", 1], "E": ["condor", 1], "S": ["condor", 3], "W": ["llama", 3], "NE": ["condor", 2], "SE": ["sun", 2], "SW": ["sun", 3], "NW": ["sun", 2]}},
    {"id": "E3-01", "type": "trade", "era": 3, "name": N_("Trade Agreement"), "effect": {"kind": "terrace_bonus", "n": 1, "text": N_("When you build a Terrace, also move 1 token from your Supply to your Active Pool.")}},
    {"id": "E3-02", "type": "trade", "era": 3, "name": N_("Trade Agreement"), "effect": {"kind": "huts2", "text": N_("Storage huts may hold two tokens.")}},
    {"id": "E3-03", "type": "trade", "era": 3, "name": N_("Trade Agreement"), "effect": {"kind": "road_discount", "n": 1, "text": N_("Each road costs 1 token less (never less than 1).")}},
    {"id": "E3-04", "type": "workforce", "era": 3, "name": N_("Extra Workforce"), "action": {"kind": "activate", "n": 3, "text": N_("Move 3 tokens from your Supply to your Active Pool.")}},
    {"id": "E3-05", "type": "workforce", "era": 3, "name": N_("Extra Workforce"), "action": {"kind": "restrict", "text": N_("Place a Route Limitation token on any location.")}},
    {"id": "E3-06", "type": "workforce", "era": 3, "name": N_("Extra Workforce"), "action": {"kind": "stock", "huts": 3, "text": N_("Stock three storage huts.")}},
    {"id": "E3-07", "type": "workforce", "era": 3, "name": N_("Extra Workforce"), "action": {"kind": "draw", "n": 2, "text": N_("Draw 2 cards from the current Era deck.")}},
    {"id": "E3-08", "type": "workforce", "era": 3, "name": N_("Extra Workforce"), "action": {"kind": "temple", "text": N_("Build a temple.")}},
    {"id": "E3-09", "type": "city", "era": 3, "region": "coastal", "name": N_("Huacho"), "fame": 2, "temple": 3, "huts": [], "ports": {"N": ["llama", 2], "E": ["llama", 2], "S": ["llama", 2], "W": ["sun", 3], "NE": ["sun", 2], "SE": ["condor", 1], "SW": ["condor", 1], "NW": ["condor", 1]}},
    {"id": "E3-10", "type": "city", "era": 3, "region": "plateau", "name": N_("Cajabamba"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["condor", 2], "E": ["sun", 2], "S": ["llama", 2], "W": ["sun", 1], "NE": ["llama", 1], "SE": ["condor", 1], "SW": ["llama", 3], "NW": ["condor", 1]}},
    {"id": "E3-11", "type": "city", "era": 3, "region": "mountain", "name": N_("Winay Wayna"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["llama", 1], "E": ["llama", 2], "S": ["llama", 3], "W": ["sun", 2], "NE": ["sun", 2], "SE": ["condor", 2], "SW": ["condor", 3], "NW": ["condor", 2]}},
    {"id": "E3-12", "type": "city", "era": 3, "region": "coastal", "name": N_("Pachacamac"), "fame": 2, "temple": 2, "huts": [], "ports": {"N": ["llama", 3], "E": ["llama", 1], "S": ["condor", 1], "W": ["llama", 1], "NE": ["llama", 1], "SE": ["llama", 2], "SW": ["sun", 1], "NW": ["condor", 1]}},
    {"id": "E3-13", "type": "city", "era": 3, "region": "plateau", "name": N_("Huamanga"), "fame": 3, "temple": 0, "huts": [], "ports": {"N": ["condor", 1], "E": ["llama", 2], "S": ["llama", 1], "W": ["sun", 1], "NE": ["sun", 1], "SE": ["llama", 3], "SW": ["llama", 1], "NW": ["llama", 2]}},
    {"id": "E3-14", "type": "city", "era": 3, "region": "mountain", "name": N_("Huchuy Qosqo"), "fame": 3, "temple": 0, "huts": [], "ports": {"N": ["sun", 2], "E": ["sun", 2], "S": ["sun", 1], "W": ["llama", 1], "NE": ["sun", 1], "SE": ["llama", 1], "SW": ["sun", 2], "NW": ["llama", 2]}},
    {"id": "E3-15", "type": "city", "era": 3, "region": "coastal", "name": N_("Chincha"), "fame": 2, "temple": 2, "huts": [], "ports": {"N": ["sun", 1], "E": ["llama", 3], "S": ["llama", 2], "W": ["condor", 2], "NE": ["condor", 1], "SE": ["llama", 1], "SW": ["sun", 2], "NW": ["llama", 1]}},
    {"id": "E3-16", "type": "city", "era": 3, "region": "plateau", "name": N_("Huanuco"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["sun", 3], "E": ["condor", 2], "S": ["sun", 2], "W": ["llama", 2], "NE": ["condor", 1], "SE": ["sun", 1], "SW": ["condor", 3], "NW": ["condor", 2]}},
    {"id": "E3-17", "type": "city", "era": 3, "region": "mountain", "name": N_("Espiritu Pampa"), "fame": 3, "temple": 0, "huts": [], "ports": {"N": ["sun", 1], "E": ["llama", 1], "S": ["llama", 1], "W": ["llama", 3], "NE": ["condor", 2], "SE": ["sun", 1], "SW": ["sun", 1], "NW": ["llama", 2]}},
    {"id": "E3-18", "type": "city", "era": 3, "region": "coastal", "name": N_("Sechura"), "fame": 2, "temple": 2, "huts": [], "ports": {"N": ["sun", 2], "E": ["sun", 1], "S": ["condor", 1], "W": ["sun", 1], "NE": ["sun", 3], "SE": ["sun", 2], "SW": ["llama", 1], "NW": ["llama", 1]}},
    {"id": "E3-19", "type": "city", "era": 3, "region": "plateau", "name": N_("Juli"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["sun", 3], "E": ["sun", 2], "S": ["condor", 1], "W": ["condor", 2], "NE": ["condor", 2], "SE": ["llama", 1], "SW": ["sun", 1], "NW": ["llama", 1]}},
    {"id": "E3-20", "type": "colca", "era": 3, "region": "coastal", "name": N_("Coastal Colca"), "fame": 1, "temple": 0, "huts": ["corn", "fish"], "ports": {"N": ["llama", 2], "E": ["sun", 1], "S": ["sun", 2], "W": ["condor", 3], "NE": ["llama", 1], "SE": ["condor", 2], "SW": ["llama", 2], "NW": ["llama", 3]}},
    {"id": "E3-21", "type": "colca", "era": 3, "region": "plateau", "name": N_("Plateau Colca"), "fame": 1, "temple": 0, "huts": ["fish", "fish", "corn"], "ports": {"N": ["sun", 3], "E": ["condor", 1], "S": ["llama", 2], "W": ["condor", 1], "NE": ["condor", 1], "SE": ["condor", 1], "SW": ["sun", 1], "NW": ["condor", 1]}},
    {"id": "E3-22", "type": "colca", "era": 3, "region": "mountain", "name": N_("Mountain Colca"), "fame": 1, "temple": 0, "huts": ["fish", "fish", "fish"], "ports": {"N": ["llama", 1], "E": ["sun", 1], "S": ["sun", 1], "W": ["condor", 3], "NE": ["sun", 2], "SE": ["llama", 1], "SW": ["sun", 3], "NW": ["sun", 1]}},
    {"id": "E3-23", "type": "colca", "era": 3, "region": "wild", "name": N_("Wild Colca"), "fame": 2, "temple": 0, "huts": ["fish", "potatoes", "corn"], "ports": {"N": ["condor", 1], "E": ["llama", 1], "S": ["llama", 1], "W": ["sun", 3], "NE": ["condor", 3], "SE": ["llama", 3], "SW": ["llama", 1], "NW": ["llama", 1]}},
    {"id": "E3-24", "type": "colca", "era": 3, "region": "coastal", "name": N_("Coastal Colca"), "fame": 1, "temple": 0, "huts": ["fish"], "ports": {"N": ["sun", 2], "E": ["condor", 2], "S": ["condor", 1], "W": ["llama", 1], "NE": ["condor", 1], "SE": ["condor", 1], "SW": ["sun", 1], "NW": ["sun", 2]}},
    {"id": "E3-25", "type": "colca", "era": 3, "region": "plateau", "name": N_("Plateau Colca"), "fame": 2, "temple": 0, "huts": ["potatoes", "potatoes"], "ports": {"N": ["condor", 1], "E": ["condor", 3], "S": ["llama", 2], "W": ["sun", 3], "NE": ["condor", 1], "SE": ["condor", 1], "SW": ["sun", 1], "NW": ["llama", 3]}},
    {"id": "E3-26", "type": "colca", "era": 3, "region": "mountain", "name": N_("Mountain Colca"), "fame": 1, "temple": 0, "huts": ["potatoes", "potatoes", "potatoes"], "ports": {"N": ["sun", 1], "E": ["llama", 1], "S": ["llama", 2], "W": ["sun", 2], "NE": ["sun", 2], "SE": ["condor", 3], "SW": ["sun", 1], "NW": ["llama", 2]}},
    {"id": "E3-27", "type": "colca", "era": 3, "region": "wild", "name": N_("Wild Colca"), "fame": 1, "temple": 0, "huts": ["fish", "fish", "corn"], "ports": {"N": ["llama", 2], "E": ["condor", 2], "S": ["condor", 1], "W": ["condor", 2], "NE": ["llama", 3], "SE": ["llama", 1], "SW": ["llama", 3], "NW": ["condor", 2]}},
    {"id": "E3-28", "type": "colca", "era": 3, "region": "coastal", "name": N_("Coastal Colca"), "fame": 1, "temple": 0, "huts": ["fish"], "ports": {"N": ["sun", 1], "E": ["condor", 1], "S": ["condor", 2], "W": ["sun", 1], "NE": ["sun", 1], "SE": ["sun", 1], "SW": ["condor", 2], "NW": ["llama", 3]}},
    {"id": "E4-01", "type": "trade", "era": 4, "name": N_("Trade Agreement"), "effect": {"kind": "huts2", "text": N_("Storage huts may hold two tokens.")}},
    {"id": "E4-02", "type": "trade", "era": 4, "name": N_("Trade Agreement"), "effect": {"kind": "road_discount", "n": 1, "text": N_("Each road costs 1 token less (never less than 1).")}},
    {"id": "E4-03", "type": "trade", "era": 4, "name": N_("Trade Agreement"), "effect": {"kind": "shared_roads", "text": N_("Each of you may use the other's roads as part of your own road system.")}},
    {"id": "E4-04", "type": "workforce", "era": 4, "name": N_("Extra Workforce"), "action": {"kind": "activate", "n": 3, "text": N_("Move 3 tokens from your Supply to your Active Pool.")}},
    {"id": "E4-05", "type": "workforce", "era": 4, "name": N_("Extra Workforce"), "action": {"kind": "restrict", "text": N_("Place a Route Limitation token on any location.")}},
    {"id": "E4-06", "type": "workforce", "era": 4, "name": N_("Extra Workforce"), "action": {"kind": "stock", "huts": 3, "text": N_("Stock three storage huts.")}},
    {"id": "E4-07", "type": "workforce", "era": 4, "name": N_("Extra Workforce"), "action": {"kind": "draw", "n": 2, "text": N_("Draw 2 cards from the current Era deck.")}},
    {"id": "E4-08", "type": "workforce", "era": 4, "name": N_("Extra Workforce"), "action": {"kind": "temple", "text": N_("Build a temple.")}},
    {"id": "E4-09", "type": "city", "era": 4, "region": "coastal", "name": N_("Paracas"), "fame": 3, "temple": 0, "huts": [], "ports": {"N": ["condor", 1], "E": ["sun", 1], "S": ["llama", 1], "W": ["sun", 1], "NE": ["sun", 1], "SE": ["llama", 2], "SW": ["sun", 2], "NW": ["sun", 2]}},
    {"id": "E4-10", "type": "city", "era": 4, "region": "plateau", "name": N_("Ayacucho"), "fame": 2, "temple": 2, "huts": [], "ports": {"N": ["condor", 2], "E": ["llama", 1], "S": ["condor", 1], "W": ["sun", 3], "NE": ["condor", 1], "SE": ["condor", 2], "SW": ["sun", 1], "NW": ["sun", 2]}},
    {"id": "E4-11", "type": "city", "era": 4, "region": "mountain", "name": N_("Tipon"), "fame": 3, "temple": 0, "huts": [], "ports": {"N": ["llama", 1], "E": ["condor", 2], "S": ["sun", 1], "W": ["sun", 1], "NE": ["condor", 2], "SE": ["condor", 1], "SW": ["sun", 1], "NW": ["condor", 1]}},
    {"id": "E4-12", "type": "city", "era": 4, "region": "coastal", "name": N_("Nazca Lines"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["sun", 2], "E": ["sun", 1], "S": ["condor", 1], "W": ["llama", 1], "NE": ["sun", 2], "SE": ["sun", 1], "SW": ["condor", 3], "NW": ["condor", 1]}},
    {"id": "E4-13", "type": "city", "era": 4, "region": "plateau", "name": N_("Abancay"), "fame": 3, "temple": 2, "huts": [], "ports": {"N": ["condor", 3], "E": ["llama", 3], "S": ["llama", 2], "W": ["condor", 2], "NE": ["condor", 2], "SE": ["sun", 3], "SW": ["sun", 1], "NW": ["sun", 3]}},
    {"id": "E4-14", "type": "city", "era": 4, "region": "mountain", "name": N_("Chinchero"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["condor", 1], "E": ["condor", 1], "S": ["condor", 2], "W": ["condor", 2], "NE": ["llama", 1], "SE": ["sun", 2], "SW": ["llama", 1], "NW": ["llama", 1]}},
    {"id": "E4-15", "type": "city", "era": 4, "region": "coastal", "name": N_("Arica"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["condor", 2], "E": ["sun", 3], "S": ["llama", 3], "W": ["sun", 2], "NE": ["condor", 3], "SE": ["llama", 3], "SW": ["sun", 1], "NW": ["condor", 2]}},
    {"id": "E4-16", "type": "city", "era": 4, "region": "plateau", "name": N_("Andahuaylas"), "fame": 2, "temple": 3, "huts": [], "ports": {"N": ["condor", 2], "E": ["llama", 1], "S": ["llama", 2], "W": ["condor", 3], "NE": ["sun", 2], "SE": ["sun", 1], "SW": ["condor", 1], "NW": ["sun", 2]}},
    {"id": "E4-17", "type": "city", "era": 4, "region": "mountain", "name": N_("Choquequirao"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["condor", 3], "E": ["sun", 1], "S": ["llama", 1], "W": ["sun", 2], "NE": ["condor", 1], "SE": ["condor", 1], "SW": ["condor", 2], "NW": ["sun", 3]}},
    {"id": "E4-18", "type": "city", "era": 4, "region": "coastal", "name": N_("Chan Chan"), "fame": 2, "temple": 0, "huts": [], "ports": {"N": ["sun", 1], "E": ["sun", 3], "S": ["sun", 2], "W": ["sun", 1], "NE": ["condor", 1], "SE": ["llama", 1], "SW": ["condor", 1], "NW": ["sun", 2]}},
    {"id": "E4-19", "type": "city", "era": 4, "region": "plateau", "name": N_("Jauja"), "fame": 2, "temple": 3, "huts": [], "ports": {"N": ["condor", 2], "E": ["sun", 2], "S": ["condor", 1], "W": ["sun", 1], "NE": ["condor", 2], "SE": ["llama", 1], "SW": ["condor", 2], "NW": ["condor", 2]}},
    {"id": "E4-20", "type": "colca", "era": 4, "region": "coastal", "name": N_("Coastal Colca"), "fame": 1, "temple": 0, "huts": ["fish"], "ports": {"N": ["sun", 2], "E": ["llama", 2], "S": ["condor", 3], "W": ["condor", 2], "NE": ["sun", 3], "SE": ["condor", 2], "SW": ["sun", 2], "NW": ["llama", 1]}},
    {"id": "E4-21", "type": "colca", "era": 4, "region": "plateau", "name": N_("Plateau Colca"), "fame": 1, "temple": 0, "huts": ["fish", "potatoes", "corn"], "ports": {"N": ["llama", 1], "E": ["llama", 1], "S": ["sun", 2], "W": ["condor", 1], "NE": ["sun", 1], "SE": ["sun", 1], "SW": ["condor", 2], "NW": ["condor", 1]}},
    {"id": "E4-22", "type": "colca", "era": 4, "region": "mountain", "name": N_("Mountain Colca"), "fame": 1, "temple": 0, "huts": ["corn", "fish"], "ports": {"N": ["condor", 1], "E": ["sun", 3], "S": ["sun", 1], "W": ["condor", 2], "NE": ["sun", 1], "SE": ["llama", 2], "SW": ["condor", 1], "NW": ["condor", 2]}},
    {"id": "E4-23", "type": "colca", "era": 4, "region": "wild", "name": N_("Wild Colca"), "fame": 1, "temple": 0, "huts": ["potatoes", "fish"], "ports": {"N": ["condor", 1], "E": ["sun", 2], "S": ["sun", 2], "W": ["condor", 2], "NE": ["sun", 1], "SE": ["llama", 2], "SW": ["llama", 3], "NW": ["llama", 1]}},
    {"id": "E4-24", "type": "colca", "era": 4, "region": "coastal", "name": N_("Coastal Colca"), "fame": 2, "temple": 0, "huts": ["fish", "potatoes"], "ports": {"N": ["condor", 3], "E": ["sun", 2], "S": ["llama", 1], "W": ["condor", 2], "NE": ["llama", 1], "SE": ["condor", 2], "SW": ["llama", 2], "NW": ["condor", 2]}},
    {"id": "E4-25", "type": "colca", "era": 4, "region": "plateau", "name": N_("Plateau Colca"), "fame": 1, "temple": 0, "huts": ["fish"], "ports": {"N": ["llama", 1], "E": ["sun", 1], "S": ["condor", 3], "W": ["condor", 3], "NE": ["condor", 1], "SE": ["llama", 2], "SW": ["condor", 2], "NW": ["llama", 1]}},
    {"id": "E4-26", "type": "colca", "era": 4, "region": "mountain", "name": N_("Mountain Colca"), "fame": 1, "temple": 0, "huts": ["potatoes", "fish"], "ports": {"N": ["llama", 2], "E": ["llama", 1], "S": ["llama", 1], "W": ["condor", 1], "NE": ["sun", 3], "SE": ["condor", 2], "SW": ["sun", 1], "NW": ["condor", 3]}},
    {"id": "E4-27", "type": "colca", "era": 4, "region": "wild", "name": N_("Wild Colca"), "fame": 2, "temple": 0, "huts": ["potatoes"], "ports": {"N": ["condor", 3], "E": ["condor", 1], "S": ["sun", 1], "W": ["sun", 2], "NE": ["sun", 1], "SE": ["condor", 3], "SW": ["condor", 1], "NW": ["llama", 3]}},
    {"id": "E4-28", "type": "colca", "era": 4, "region": "coastal", "name": N_("Coastal Colca"), "fame": 1, "temple": 0, "huts": ["fish", "corn", "fish"], "ports": {"N": ["sun", 1], "E": ["condor", 2], "S": ["sun", 1], "W": ["llama", 3], "NE": ["llama", 2], "SE": ["sun", 1], "SW": ["llama", 1], "NW": ["sun", 3]}},
]

# The Goal cards of the current rules (version 4): the first designs (version 3, kept below as
# ``RETIRED_GOALS`` for games begun under them) met some Goals nearly always and others rarely;
# each redesigned card has a new id ("G03b"), so a Goal id always means one text and one
# condition.  ``n_by_players``: the count needed depends on the number of players (fewer
# players build and claim more each).  docs/games/inca_empire.md gives the measurements.
GOALS = [
    {"id": "G01", "kind": "region_cities", "points": 4, "text": N_("Your road system reaches 3 coastal cities."), "region": "coastal", "n": 3},
    {"id": "G02", "kind": "region_cities", "points": 6, "text": N_("Your road system reaches 4 coastal cities."), "region": "coastal", "n": 4},
    {"id": "G03b", "kind": "region_cities", "points": 4, "text": N_("Your road system reaches 4 plateau cities."), "region": "plateau", "n": 4},
    {"id": "G04b", "kind": "region_cities", "points": 7, "text": N_("Your road system reaches 5 plateau cities."), "region": "plateau", "n": 5},
    {"id": "G05", "kind": "region_cities", "points": 4, "text": N_("Your road system reaches 3 mountain cities."), "region": "mountain", "n": 3},
    {"id": "G06", "kind": "region_cities", "points": 6, "text": N_("Your road system reaches 4 mountain cities."), "region": "mountain", "n": 4},
    {"id": "G07b", "kind": "colcas", "points": 3, "text": N_("Your road system reaches 4 Colcas."), "n": 4},
    {"id": "G08b", "kind": "colcas", "points": 5, "text": N_("Your road system reaches 5 Colcas."), "n": 5},
    {"id": "G09b", "kind": "colcas", "points": 7, "text": N_("Your road system reaches 6 Colcas."), "n": 6},
    {"id": "G10b", "kind": "claimed", "points": 4, "text": N_("You claimed cards with Fame tokens: 9 with 2 players, 8 with 3, 7 with 4, 6 with 5."), "n_by_players": {2: 9, 3: 8, 4: 7, 5: 6}},
    {"id": "G11b", "kind": "claimed", "points": 7, "text": N_("You claimed cards with Fame tokens: 10 with 2 players, 9 with 3, 8 with 4, 7 with 5."), "n_by_players": {2: 10, 3: 9, 4: 8, 5: 7}},
    {"id": "G12b", "kind": "temples", "points": 3, "text": N_("You built 2 temples."), "n": 2},
    {"id": "G13b", "kind": "temple_tokens", "points": 5, "text": N_("Your temples hold 5 or more tokens."), "n": 5},
    {"id": "G14", "kind": "temples", "points": 8, "text": N_("You built 3 temples."), "n": 3},
    {"id": "G15b", "kind": "huts_good", "points": 4, "text": N_("You stocked 3 storage huts holding fish."), "goods": ["fish"], "n": 3},
    {"id": "G16b", "kind": "huts_good", "points": 4, "text": N_("You stocked 2 storage huts holding corn or potatoes."), "goods": ["corn", "potatoes"], "n": 2},
    {"id": "G17b", "kind": "huts_good", "points": 6, "text": N_("You stocked 3 storage huts holding corn or potatoes."), "goods": ["corn", "potatoes"], "n": 3},
    {"id": "G18", "kind": "all_goods", "points": 5, "text": N_("You stocked a storage hut of each kind: fish, corn and potatoes.")},
    {"id": "G19", "kind": "colca_each_region", "points": 6, "text": N_("Your road system reaches a Colca in each region.")},
    {"id": "G20", "kind": "city_each_region", "points": 6, "text": N_("You claimed a city in each region.")},
    {"id": "G21b", "kind": "terraces", "points": 3, "text": N_("You have Terraces: 18 with 2 or 3 players, 17 with 4, 15 with 5."), "n_by_players": {2: 18, 3: 18, 4: 17, 5: 15}},
    {"id": "G22b", "kind": "terraces", "points": 5, "text": N_("You have Terraces: 19 with 2 or 3 players, 18 with 4, 16 with 5."), "n_by_players": {2: 19, 3: 19, 4: 18, 5: 16}},
    {"id": "G23b", "kind": "cities", "points": 4, "text": N_("Your road system reaches 10 cities (Cusco counts)."), "n": 10},
    {"id": "G24b", "kind": "cities", "points": 6, "text": N_("Your road system reaches 11 cities (Cusco counts)."), "n": 11},
    {"id": "G25", "kind": "far", "points": 5, "text": N_("Your road system reaches a location 3 or more rows north of Cusco."), "side": "north", "n": 3},
    {"id": "G26b", "kind": "far", "points": 5, "text": N_("Your road system reaches a location 4 or more rows south of Cusco."), "side": "south", "n": 4},
]

# Version 3's designs of the Goals version 4 redesigned (same ids as then).
RETIRED_GOALS = [
    {"id": "G03", "kind": "region_cities", "points": 4, "text": N_("Your road system reaches 3 plateau cities."), "region": "plateau", "n": 3},
    {"id": "G04", "kind": "region_cities", "points": 6, "text": N_("Your road system reaches 4 plateau cities."), "region": "plateau", "n": 4},
    {"id": "G07", "kind": "colcas", "points": 3, "text": N_("Your road system reaches 2 Colcas."), "n": 2},
    {"id": "G08", "kind": "colcas", "points": 5, "text": N_("Your road system reaches 3 Colcas."), "n": 3},
    {"id": "G09", "kind": "colcas", "points": 7, "text": N_("Your road system reaches 4 Colcas."), "n": 4},
    {"id": "G10", "kind": "claimed", "points": 4, "text": N_("You claimed 4 cards with Fame tokens."), "n": 4},
    {"id": "G11", "kind": "claimed", "points": 7, "text": N_("You claimed 6 cards with Fame tokens."), "n": 6},
    {"id": "G12", "kind": "temples", "points": 3, "text": N_("You built 1 temple."), "n": 1},
    {"id": "G13", "kind": "temples", "points": 5, "text": N_("You built 2 temples."), "n": 2},
    {"id": "G15", "kind": "huts_good", "points": 4, "text": N_("You stocked 2 storage huts holding fish."), "good": "fish", "n": 2},
    {"id": "G16", "kind": "huts_good", "points": 4, "text": N_("You stocked 2 storage huts holding corn."), "good": "corn", "n": 2},
    {"id": "G17", "kind": "huts_good", "points": 4, "text": N_("You stocked 2 storage huts holding potatoes."), "good": "potatoes", "n": 2},
    {"id": "G21", "kind": "terraces", "points": 3, "text": N_("You have 4 Terraces."), "n": 4},
    {"id": "G22", "kind": "terraces", "points": 5, "text": N_("You have 6 Terraces."), "n": 6},
    {"id": "G23", "kind": "cities", "points": 4, "text": N_("Your road system reaches 6 cities (Cusco counts)."), "n": 6},
    {"id": "G24", "kind": "cities", "points": 6, "text": N_("Your road system reaches 8 cities (Cusco counts)."), "n": 8},
    {"id": "G26", "kind": "far", "points": 5, "text": N_("Your road system reaches a location 3 or more rows south of Cusco."), "side": "south", "n": 3},
]

GOAL_DECKS = {
    "3": [g["id"] for g in sorted([*GOALS, *RETIRED_GOALS], key=lambda g: g["id"])
          if not g["id"].endswith("b")],
    "4": [g["id"] for g in GOALS],
}
FIRST_GOAL_DECK_VERSION = "3"   # versions 1 to 3 dealt the same 26 Goals


def goal_deck(rules_version: str) -> list[str]:
    """The ids of the 26 Goal cards a game of ``rules_version`` deals from."""
    return GOAL_DECKS.get(str(rules_version), GOAL_DECKS[FIRST_GOAL_DECK_VERSION])


CARDS = {c["id"]: c for c in [CUSCO, *START_CARDS, *ERA_CARDS]}
GOALS_BY_ID = {g["id"]: g for g in [*GOALS, *RETIRED_GOALS]}

assert len(ERA_CARDS) == 111 and len(START_CARDS) == 5
assert all(len(deck) == 26 for deck in GOAL_DECKS.values())
