"""One folder per game, named as ``engine.registry`` names it: how the service shows that game
(``service.view.presentations`` finds it; nothing else in the service names a game)."""
