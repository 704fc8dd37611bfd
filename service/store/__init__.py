"""The store room: the database, the event store with its hash chain, snapshots, replay,
and the projections written in an event's transaction (seats, clocks, preferences).  The only
room that touches SQL and the database drivers."""
