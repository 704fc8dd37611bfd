"""The card set's old module name, kept only while service/boards/inca_empire.py and
tests/service import it; the tables are ``data``.  Delete this module once nothing does."""
from engine.games.inca_empire.data import CARDS, CUSCO, GOALS  # noqa: F401
