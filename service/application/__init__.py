"""The application room: the commands (create a game, make a move, roll back, invite,
sweep deadlines...), one unit of work each, and the only callers that change a game through the
engine.  Called by ``service.web`` and ``workers``; calls mail, view, store and core."""
