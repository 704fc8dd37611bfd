"""A game is one folder: the service finds how to show a game through ``engine.registry`` and
``service.view.presentations`` and names no game anywhere else, so adding a game needs no edit
to the service (docs: service/view/presentations.py)."""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest
from babel.messages.frontend import parse_mapping_cfg
from babel.util import pathmatch

from engine.registry import GAMES
from service.view import presentations
from service.view.i18n import DOMAINS, RUNTIME_TEXTS
from service.view.presentations import DEFAULT, Presentation, board, presentation

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "service"
GAME_FOLDERS = SERVICE / "view" / "games"
NAMES = ["Ana", "Ben", "Cleo"]
# A game's engine name and the words of its title ("Incan Gold", "Machu Picchu", "Inca Empire").
GAME_WORDS = re.compile("|".join(sorted(
    {re.escape(name) for name in GAMES} | {re.escape(part) for name in GAMES
                                           for part in name.split("_")[:1]}, key=len,
    reverse=True)), re.IGNORECASE)
# Texts outside the game folders that name a game as an example, kept because changing them
# would change what users see: the JSON API's refusal (the API must not change) and the CLI's
# default game.
EXAMPLES = {
    ("web/api.py", 'game must be a game name, e.g. "incan_gold"'),
}


def code_words(source: str) -> list[str]:
    """The names and string literals of a module, without comments and docstrings (prose may
    cite a game as an example; code that depends on one is what must not exist)."""
    words, previous = [], tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME:
            words.append(token.string)
        elif token.type == tokenize.STRING and previous not in (tokenize.NEWLINE, tokenize.INDENT,
                                                                 tokenize.DEDENT, tokenize.NL):
            words.append(_literal(token.string))
        if token.type not in (tokenize.COMMENT, tokenize.NL):
            previous = token.type
    return words


def _literal(text: str) -> str:
    try:
        return str(ast.literal_eval(text))
    except ValueError:  # an f-string: its text as written
        return text


def test_no_service_module_outside_the_game_folders_names_a_game():
    """The brief: a game is one folder; the service knows none by name."""
    found = set()
    for path in SERVICE.rglob("*.py"):
        if GAME_FOLDERS in path.parents:
            continue
        where = path.relative_to(SERVICE).as_posix()
        found |= {(where, word) for word in code_words(path.read_text(encoding="utf-8"))
                  if GAME_WORDS.search(word)}
    assert found == EXAMPLES


def test_the_scan_sees_code_but_not_prose():
    source = '"""Incan Gold as an example."""\n# machu_picchu here too\nX = "inca_empire"\n'
    assert [w for w in code_words(source) if GAME_WORDS.search(w)] == ["inca_empire"]


def test_every_registered_game_has_its_presentation_or_the_default():
    for name in GAMES:
        folder = GAME_FOLDERS / name / "__init__.py"
        shown = presentation(name)
        assert isinstance(shown, Presentation), name
        assert (shown is not DEFAULT) == folder.exists(), name
        drawn = board(name)
        assert (drawn is not None) == (GAME_FOLDERS / name / "board.py").exists(), name
        if drawn is not None:
            assert callable(drawn.svg) and callable(drawn.mail_html), name


def test_a_registered_game_without_a_folder_is_shown_with_the_default(monkeypatch):
    registry = {**{name: None for name in GAMES}, "dominoes": None}
    monkeypatch.setattr(presentations, "GAMES", registry)
    presentations.presentation.cache_clear()
    presentations.board.cache_clear()
    try:
        assert presentation("dominoes") is DEFAULT and board("dominoes") is None
        assert "dominoes" not in presentations.option_choices()
        assert presentations.gettext_domains() == DOMAINS[1:]
    finally:
        presentations.presentation.cache_clear()
        presentations.board.cache_clear()
    assert presentation("not_registered") is DEFAULT


def test_the_catalog_domains_and_runtime_texts_come_from_the_games():
    assert DOMAINS == ("messages", *dict.fromkeys(
        presentation(n).gettext_domain for n in GAMES if presentation(n).gettext_domain))
    for name in GAMES:
        assert set(presentation(name).runtime_texts) <= set(RUNTIME_TEXTS), name
        assert GAMES[name].title in RUNTIME_TEXTS, f"{name}'s title is not in a catalog"


def _mapped(cfg: Path, path: str) -> str | None:
    """The extraction method ``cfg`` gives ``path`` (pybabel takes the first matching pattern)."""
    with open(cfg) as handle:
        method_map, _options = parse_mapping_cfg(handle)
    return next((method for pattern, method in method_map if pathmatch(pattern, path)), None)


def test_the_service_catalog_config_names_no_game():
    """The brief: a game is one folder; translations/babel.cfg maps the service's texts with
    patterns that fit every game alike, never one game's files by name."""
    cfg = (ROOT / "translations" / "babel.cfg").read_text(encoding="utf-8")
    mapping = [line for line in cfg.splitlines() if line.strip() and not line.startswith("#")]
    assert mapping and not [line for line in mapping if GAME_WORDS.search(line)]


@pytest.mark.parametrize("name", list(GAMES))
def test_a_games_engine_and_templates_are_extracted_into_its_own_domain_only(name):
    """translations/README.md: each game has its own domain, found through its presentation;
    the service's catalog holds none of its engine texts or templates."""
    domain = presentation(name).gettext_domain
    assert domain, f"{name} needs its own catalog domain (translations/<game>.cfg)"
    files = [f"engine/games/{name}/game.py", f"templates/games/{name}/view.txt",
             f"templates/games/{name}/mail.html"]
    for file in files:
        assert _mapped(ROOT / "translations" / f"{domain}.cfg", file) in ("python", "jinja2"), file
        assert _mapped(ROOT / "translations" / "babel.cfg", file) in (None, "ignore"), file


@pytest.mark.parametrize("name", [name for name in GAMES if board(name) is not None])
def test_a_games_board_words_are_extracted_into_its_own_domain_only(name):
    """translations/README.md: a game's board is in its own domain, not the service's."""
    domain = presentation(name).gettext_domain
    board_file = f"service/view/games/{name}/board.py"
    assert domain, f"{name} has a board, so it needs its own catalog domain"
    assert _mapped(ROOT / "translations" / f"{domain}.cfg", board_file) == "python"
    assert _mapped(ROOT / "translations" / "babel.cfg", board_file) == "ignore"
    assert _mapped(ROOT / "translations" / "babel.cfg",
                   f"service/view/games/{name}/__init__.py") == "python"


@pytest.mark.parametrize("name", list(GAMES))
def test_every_option_choice_offered_is_one_the_engine_accepts(name):
    game = GAMES[name]
    for option, choices in presentation(name).option_choices.items():
        for value, _label in choices:
            assert game.setup(NAMES, 1, {option: value}), (name, option, value)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_standing_orders_offered_are_the_engines_and_each_answer_is_accepted(name):
    game, offered = GAMES[name], presentation(name).standing_choices
    state = game.setup(NAMES, 1, {})
    view = game.view(state, 0)
    if not offered:
        assert "standing_orders" not in view, f"{name} has standing orders but offers none"
        return
    assert [order.key for order in offered] == list(view["standing_orders"])
    for order in offered:
        for value in order.values:
            after = game.apply(state, 0, {"type": "standing_orders", "orders": {order.key: value}})
            assert game.view(after, 0)["standing_orders"][order.key] == value


def test_templates_reach_a_games_pictures_and_the_shared_colours_through_boards(app):
    env = app.jinja_env
    for name in GAMES:
        drawn = env.from_string("{{ boards[name] is defined }}").render(name=name)
        assert drawn == str(board(name) is not None), name
    assert env.from_string("{{ boards.seat_colour(1).name }}").render() == "blue"
    assert env.from_string("{{ boards.no_such_game is defined }}").render() == "False"
