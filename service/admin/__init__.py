"""Issue 6: admin accounts, the dashboard and audit log, time travel, export/import, and the
commands that change a game on an admin's (or a player's undo) behalf.

Modules: ``auth`` (accounts, passwords, who may see which game), ``commands`` (rollback, undo,
seat management, pause/resume/abandon, export/import: each one appends an event), ``audit``
(the log in words with public-state diffs), ``notices`` (the text mailed after an admin
event), ``seat_offers`` (a replacement waits for the newcomer to accept), ``views`` (HTML
pages under /admin), ``api`` (JSON under /admin/api) and ``seat_offer_pages`` (the
newcomer's /seat-offer pages).

This file stays empty of imports: ``service.mail`` imports ``notices`` while the app is being
built, so nothing here may pull in Flask blueprints or ``service.app``."""
