"""The Princes of Machu Picchu (2–5 players), rules engine.

Modules (the roles every game has, engine/core.py): ``game`` (the protocol object), ``data``
(every table; reconstructed board values are marked there), ``rules`` (setup and the turn
machine: a queue of frames, see its docstring), ``view`` (what a seat may see, labels, decision
keys), ``scoring``, ``bot`` (timeout defaults, standing orders' answers, the bot); and this
game's own ``trail`` (Incatrail and summit).
Rules as implemented, decisions and the rule → test table: docs/games/machu_picchu.md.

Standing orders
---------------
The game declares them (``GAME.standing_orders``): ``produce`` ("ask"|"always"|"never"),
``temple_sacrifice`` ("ask"|"all"|"none"), ``main_temple`` ("ask"|"all"|"goods_only"|"none").
``{"type": "standing_orders", "orders": {...}}`` is accepted by ``find_legal_action`` and
``apply_in_place`` from **any seat at any time** while the game runs, but it is **not** listed
in ``legal_actions`` (a seat that need not act keeps an empty list, as the contract wants).
The engine then answers that seat's production / sacrifice decisions itself instead of
waiting ("always" produces as many as the seat can pay and the bank has; "all" sacrifices
every llama allowed, or one of each kind at the Main Temple, "goods_only" there keeps the
corn).  Setting one's own orders never changes the epoch by itself; an order answering
during another seat's move does (that seat learns what the orders said).
"""
from engine.games.machu_picchu.game import GAME

__all__ = ["GAME"]
