"""The card set's old module name, kept only while service/boards/inca_empire.py imports it
(``tables.CUSCO``); the tables are ``data``.  Delete this module once nothing imports it."""
from engine.games.inca_empire.data import CUSCO  # noqa: F401
