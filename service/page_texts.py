"""Texts the pages show that are made in Python (issue 7): error titles and messages, and the
board helpers' fixed names (service.boards).  Marked with ``N_`` for ``pybabel extract``;
templates translate them with the ``tr`` filter (``{{ title | tr }}``), which leaves a text
without a catalog entry as it is.  Engine action labels and texts built with values (group
hints naming a district, SVG titles) stay English."""
from __future__ import annotations

from service.i18n import N_

PAGE_TEXTS = (
    # error pages
    N_("Link not valid"), N_("Malformed move"), N_("Malformed request"), N_("Not available"),
    N_("Not done"), N_("Too many mails"), N_("Too many requests"), N_("Check your mail"),
    N_("Invitation"),
    N_("that action is not available now"), N_("the form was incomplete; go back and try again"),
    N_("this seat now has another player"),
    # seat colours (service.boards.SEAT_COLOURS)
    N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("purple"), N_("grey"), N_("orange"),
    N_("teal"),
    # Machu Picchu (service.boards.machu_picchu): goods, priests, moon tiles, phases, groups
    N_("corn"), N_("llama"), N_("coca"), N_("pottery"), N_("cloth"),
    N_("Priest of the Condor"), N_("Priest of the Puma"), N_("Virgin of the Sun"),
    N_("3 corn"), N_("2 trail steps"), N_("3 trail steps"), N_("1 llama for 1 corn"),
    N_("1 coca for 1 corn"), N_("1 pottery for 1 corn"), N_("1 cloth for 1 corn"),
    N_("placing the free Incas"), N_("moving a Prince"), N_("game over"), N_("between turns"),
    N_("Place your free Inca"), N_("Setup: one Inca on a production district."),
    N_("Place your Prince"), N_("Start anywhere in the city."), N_("Move to a neighbour"),
    N_("Pay 1 llama, go anywhere"), N_("Stay for a Moon Tile"), N_("At the summit"),
    N_("Keep one card, return the others."), N_("Your choices"), N_("Other choices"),
    # Inca Empire (service.boards.inca_empire): action groups
    N_("Show cards for the draft"), N_("Chosen face down; everyone reveals together."),
    N_("Take a card from the draft"), N_("Build a city or Colca"), N_("Build a road"),
    N_("Build a temple"), N_("Stock a storage hut"), N_("Place"), N_("Route restriction"),
    N_("Play Extra Workforce"), N_("Make a Trade Agreement"), N_("Build a Terrace (face down)"),
    N_("Or finish"),
    # Inca Empire location types (service.boards.inca_empire.TYPE_TEXT)
    N_("city"), N_("Colca"), N_("start city"), N_("capital"), N_("Trade Agreement"),
    N_("Extra Workforce"),
    # Machu Picchu's trail marks (service.boards.machu_picchu.TRAIL_MARKS)
    N_("granary: 3 corn"), N_("llama stable: 1 llama"), N_("summit: draw sacrifice cards"),
)
